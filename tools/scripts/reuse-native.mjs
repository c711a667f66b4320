// reuse-native.mjs <from-node_modules> <to-node_modules>: finishes an `npm install --ignore-scripts` of an
// app's production dependencies. A package with an install step (native addons: better-sqlite3, ssh2's
// optional crypto binding) is copied from <from> when <from> holds the same version, already built by
// `npm ci` on this machine for this Node; any other is built in place with `npm rebuild`. Same result as
// letting npm compile them again, minus minutes of node-gyp per app.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

const [from, to] = process.argv.slice(2);
if (!from || !to) throw new Error('usage: reuse-native.mjs <from-node_modules> <to-node_modules>');

const manifest = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const packagesIn = (modules) =>
  readdirSync(modules)
    .filter((name) => !name.startsWith('.'))
    .flatMap((name) => (name.startsWith('@') ? readdirSync(join(modules, name)).map((inner) => `${name}/${inner}`) : [name]));
const installs = (dir) => {
  const { scripts = {}, gypfile } = manifest(dir);
  return Boolean(scripts.preinstall || scripts.install || scripts.postinstall || gypfile || existsSync(join(dir, 'binding.gyp')));
};

const rebuild = [];
for (const name of packagesIn(to)) {
  const target = join(to, name);
  if (!existsSync(join(target, 'package.json')) || !installs(target)) continue;
  const source = join(from, name);
  if (existsSync(join(source, 'package.json')) && manifest(source).version === manifest(target).version) {
    rmSync(target, { recursive: true, force: true });
    cpSync(source, target, { recursive: true, dereference: true });
    console.log(`reused ${name}@${manifest(target).version} as built by npm ci`);
  } else rebuild.push(name);
}
if (rebuild.length > 0) execFileSync('npm', ['rebuild', ...rebuild], { cwd: dirname(to), stdio: 'inherit' });
