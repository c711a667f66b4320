// Whether node_modules holds exactly what package-lock.json asks for, per npm's own record of what it
// installed (node_modules/.package-lock.json): a copy of a working checkout needs no `npm ci`. Exit 0 if so.
const fs = require('node:fs');

const read = (file) => JSON.parse(fs.readFileSync(file, 'utf8')).packages ?? {};
let lock;
let installed;
try {
  lock = read('package-lock.json');
  installed = read('node_modules/.package-lock.json');
} catch {
  process.exit(1);
}
const modules = (packages) => Object.entries(packages).filter(([path]) => path.includes('node_modules/'));
const differs =
  modules(lock).some(([path, entry]) => (installed[path] ? installed[path].version !== entry.version : !entry.optional)) ||
  modules(installed).some(([path]) => !lock[path] || !fs.existsSync(path));
process.exit(differs ? 1 : 0);
