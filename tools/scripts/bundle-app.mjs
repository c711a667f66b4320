// `nx run @antidote/<app>:bundle`: turns an app's compiled output (dist/, decorator metadata intact) into a
// self-contained folder `apps/<app>/bundle/` holding `main.js` and a production `package.json` that lists
// only the packages that cannot be bundled (native addons and packages loaded by file path at run time).
// `npm install --omit=dev` in that folder, then `node main.js`, runs the app with nothing else around it.
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');
const app = process.argv[2];
if (!app) throw new Error('usage: bundle-app.mjs <app>');
const appDir = join(root, 'apps', app);
const outDir = join(appDir, 'bundle');

/** Installed next to the bundle: native addons, and packages that read their own files at run time. */
const runtimeDependenciesOf = {
  // The API document's UI is served from swagger-ui-dist's own files; the learner's UI loads these
  // browser libraries' files as they are published.
  api: ['swagger-ui-dist', '@xterm/xterm', '@xterm/addon-fit', 'marked', 'dompurify'],
};
/** Static files an app serves, copied beside its bundle: the learner's UI (apps/web) under `web/`. */
const staticFoldersOf = {
  api: [[join(root, 'apps', 'web', 'public'), join('web', 'public')]],
};
const runtimeDependencies = ['better-sqlite3', 'pg', 'ssh2', ...(runtimeDependenciesOf[app] ?? [])];
/** Optional integrations of NestJS / TypeORM / ws that we never load; left as failing imports on purpose. */
const optional = [
  '@nestjs/websockets',
  '@nestjs/websockets/*',
  '@grpc/grpc-js',
  '@grpc/proto-loader',
  'kafkajs',
  'mqtt',
  'amqplib',
  'amqp-connection-manager',
  'ioredis',
  'class-validator',
  'class-transformer',
  '@fastify/*',
  'fastify',
  '@mikro-orm/*',
  'mysql',
  'mysql2',
  'oracledb',
  'mssql',
  'sqlite3',
  'sql.js',
  'mongodb',
  'redis',
  '@sap/hana-client',
  '@sap/hana-client/*',
  'typeorm-aurora-data-api-driver',
  'react-native-sqlite-storage',
  'hdb-pool',
  'pg-query-stream',
  'pg-native',
  '@google-cloud/spanner',
  'bufferutil',
  'utf-8-validate',
  'cpu-features',
  '@nestjs/platform-socket.io',
  'pino-pretty',
  '@opentelemetry/exporter-jaeger',
  'better-sqlite3/*',
];

const appVersion = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')).version;
let sha = 'unknown';
try {
  sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
} catch {
  // not a git checkout
}

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const appPackage = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8'));
// The curriculum is read in a child process that runs `curriculum.worker.js` from beside the bundle.
const workers = appPackage.dependencies?.['@antidote/curriculum']
  ? { 'curriculum.worker': join(root, 'libs', 'curriculum', 'dist', 'curriculum.worker.js') }
  : {};
await build({
  entryPoints: { main: join(appDir, 'dist', 'main.js'), ...workers },
  outdir: outDir,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  legalComments: 'none',
  keepNames: true,
  external: [...runtimeDependencies, ...optional],
  // CommonJS packages inside an ESM bundle still call require() for Node built-ins.
  banner: { js: "import { createRequire as __antidoteCreateRequire } from 'node:module'; const require = __antidoteCreateRequire(import.meta.url);" },
  define: { __ANTIDOTE_BUILD_VERSION__: JSON.stringify(appVersion), __ANTIDOTE_BUILD_SHA__: JSON.stringify(sha) },
  logLevel: 'warning',
});

for (const [from, to] of staticFoldersOf[app] ?? []) cpSync(from, join(outDir, to), { recursive: true });

const rootPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const dependencies = Object.fromEntries(runtimeDependencies.map((name) => [name, rootPackage.dependencies[name]]));
writeFileSync(
  join(outDir, 'package.json'),
  `${JSON.stringify(
    {
      name: `antidote-${app}`,
      version: appPackage.version,
      private: true,
      type: 'module',
      main: 'main.js',
      scripts: { start: 'node main.js' },
      engines: rootPackage.engines,
      dependencies,
      allowScripts: Object.fromEntries(runtimeDependencies.filter((name) => rootPackage.allowScripts?.[name]).map((name) => [name, true])),
    },
    null,
    2,
  )}\n`,
);
console.log(`bundled ${app} → ${outDir}`);
