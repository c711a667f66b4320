import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import swc from 'unplugin-swc';
import { defineConfig, type ViteUserConfig } from 'vitest/config';

const root = import.meta.dirname;

/** `@antidote/<name>` and its subpath entries (`@antidote/messaging/dev`) → their TypeScript source, so tests run without a build. */
function workspaceAliases(): { find: RegExp; replacement: string }[] {
  const aliases: { find: RegExp; replacement: string }[] = [];
  for (const folder of ['libs', 'tools', 'apps']) {
    for (const name of readdirSync(join(root, folder))) {
      const manifest = join(root, folder, name, 'package.json');
      if (!existsSync(manifest)) continue;
      const exports = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, { types?: string }> }).exports ?? {};
      for (const [subpath, entry] of Object.entries(exports)) {
        if (!entry.types) continue;
        const specifier = `@antidote/${name}${subpath.slice(1)}`.replace(/[/.-]/g, (c) => `\\${c}`);
        aliases.push({ find: new RegExp(`^${specifier}$`), replacement: join(root, folder, name, entry.types) });
      }
    }
  }
  return aliases;
}

export interface ProjectTestOptions {
  /** Test files run one at a time (suites that start heavy servers). */
  serial?: boolean;
  testTimeoutMs?: number;
  include?: string[];
  exclude?: string[];
  /** Start one PostgreSQL for the run when ANTIDOTE_TEST_PG_URL is not set (projects whose tests use it). */
  postgres?: boolean;
}

/** The vitest configuration every project uses: SWC for decorator metadata, a JSON report for CI. */
export function projectConfig(projectDir: string, options: ProjectTestOptions = {}): ViteUserConfig {
  // `npm run test:unit` runs the unit tier: every `*.spec.ts` that is not an integration, e2e, fault or
  // bench suite — in process, no nats-server, no PostgreSQL (test-servers.ts refuses to start one).
  // `npm run test:faults` runs the `*.faults.spec.ts` suites (Kubernetes API errors, outages, dropped
  // watches), `npm run bench` the `*.bench.spec.ts` ones (figures printed), `npm run test:conformance` the
  // `*.conformance.spec.ts` ones (a real control plane, one per run), `npm run chaos` the `*.chaos.spec.ts`
  // ones (the long chaos run, its account printed); `npm test` everything else.
  const suite = process.env.ANTIDOTE_TEST_SUITE;
  const conformance = suite === 'conformance';
  const chaos = suite === 'chaos';
  const faults = suite === 'faults' || suite === 'bench' || conformance || chaos;
  const unit = suite === 'unit';
  const name = faults || unit ? `${basename(projectDir)}-${suite}` : basename(projectDir);
  const tiersElsewhere = faults
    ? []
    : [
        '**/*.faults.spec.ts',
        '**/*.bench.spec.ts',
        '**/*.conformance.spec.ts',
        '**/*.chaos.spec.ts',
        ...(unit ? ['**/*.integration.spec.ts', '**/*.e2e.spec.ts'] : []),
      ];
  return defineConfig({
    plugins: [
      swc.vite({
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
          keepClassNames: true,
        },
        module: { type: 'es6' },
      }),
    ],
    resolve: { alias: workspaceAliases() },
    test: {
      root: projectDir,
      include: faults ? [`src/**/*.${suite}.spec.ts`] : (options.include ?? ['src/**/*.spec.ts', 'test/**/*.spec.ts']),
      exclude: [...(options.exclude ?? ['**/node_modules/**', '**/dist/**']), ...tiersElsewhere],
      // Upper bounds only (a test that passes ends long before): on a loaded machine starting the platform
      // (antictl up, kcp) can take minutes, and a test must never fail for being slow.
      testTimeout: suite === 'bench' || chaos ? 600_000 : conformance ? 180_000 : (options.testTimeoutMs ?? 120_000),
      hookTimeout: 600_000,
      // Waits for a condition (`expect.poll`, and `vi.waitFor` through vitest.setup.ts) get a ceiling that
      // a loaded machine does not reach; they return as soon as the condition holds.
      expect: { poll: { timeout: 60_000, interval: 20 } },
      setupFiles: [join(root, 'vitest.setup.ts')],
      pool: 'forks',
      // The unit tier shares one module graph per worker (half the CPU: Nest and the libs load once per worker,
      // not once per file); the tiers with servers keep a fresh one per file.
      isolate: !unit,
      // One file at a time for benches too: a bench beside another measures the other's load, and a burst's
      // wildcard endpoint socket (kube-sim past 2,048 addresses on a port) refuses the other process's binds.
      fileParallelism: !options.serial && !conformance && suite !== 'bench' && !chaos,
      maxWorkers: options.serial || conformance || suite === 'bench' || chaos ? 1 : 2,
      reporters: ['default', ['json', { outputFile: join(root, 'reports', unit ? 'vitest-unit' : 'vitest', `${name}.json`) }]],
      passWithNoTests: faults || unit,
      // The control plane, then its kubelets (kube-sim's nodes); torn down in reverse.
      globalSetup: conformance
        ? [join(root, 'libs', 'testing', 'src', 'kcp.global-setup.ts'), join(root, 'tools', 'kube-sim', 'test', 'sim-nodes.global-setup.ts')]
        : options.postgres && !unit
          ? [join(root, 'libs', 'testing', 'src', 'postgres.global-setup.ts')]
          : [],
    },
  });
}
