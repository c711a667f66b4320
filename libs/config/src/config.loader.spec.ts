import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, envNameOf, loadConfig, MAX_INSTANCE_ID_LENGTH, parseConfig, poolBudgetOf } from './index.js';

const fixture = (name: string): string => join(import.meta.dirname, '..', 'test', 'fixtures', name);
const minimal = { instanceId: 'antidote', curriculumDir: '/curriculum' };

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('reads the original sample file with the original defaults (reference §8.4 #16)', () => {
    const { config, warnings } = loadConfig({ path: fixture('sample-antidote-config.yml'), env: {} });
    expect(warnings).toEqual([]);
    expect({
      curriculumDir: config.curriculumDir,
      instanceId: config.instanceId,
      tier: config.tier,
      imageOrg: config.imageOrg,
      hepsDomain: config.hepsDomain,
      grpcPort: config.grpcPort,
      httpPort: config.httpPort,
      liveSessionTTL: config.liveSessionTTL,
      liveLessonTTL: config.liveLessonTTL,
      liveSessionLimit: config.liveSessionLimit,
      liveLessonLimit: config.liveLessonLimit,
      curriculumVersion: config.curriculumVersion,
      alwaysPull: config.alwaysPull,
      secretsNamespace: config.kubernetes.secretsNamespace,
      tlsCertName: config.kubernetes.tlsCertName,
      pullCredName: config.kubernetes.pullCredName,
      allowEgress: config.allowEgress,
      enabledServices: config.enabledServices,
      inCluster: config.kubernetes.inCluster,
      kubeconfigPath: config.kubernetes.kubeconfigPath,
      natsUrl: config.natsUrl,
      devMode: config.devMode,
    }).toEqual({
      curriculumDir: '/usr/bin/curriculum',
      instanceId: 'foobar',
      tier: 'prod',
      imageOrg: 'antidotelabs',
      hepsDomain: 'heps.nrelabs.io',
      grpcPort: 50099,
      httpPort: 8086,
      liveSessionTTL: 1440,
      liveLessonTTL: 30,
      // The original defaulted both limits to 0 (unlimited). Sessions held per address stay unlimited (their
      // rate is limited instead: api.newSessionsPerAddress); labs per session are on by default (docs/security.md).
      liveSessionLimit: 0,
      liveLessonLimit: 3,
      curriculumVersion: 'latest',
      alwaysPull: false,
      secretsNamespace: 'prod',
      tlsCertName: 'tls-certificate',
      pullCredName: '',
      allowEgress: false,
      enabledServices: ['foobarsvc'],
      inCluster: true,
      kubeconfigPath: '',
      natsUrl: 'nats://127.0.0.1:4222',
      devMode: false,
    });
  });

  it("accepts HEAD's backendConfigs.kubernetes form and warns about unknown keys", () => {
    const { config, warnings } = loadConfig({ path: fixture('head-antidote-config.yml'), env: {} });
    expect(config.kubernetes).toMatchObject({
      inCluster: false,
      kubeconfigPath: '/root/.kube/config',
      secretsNamespace: 'antidote-secrets',
      tlsCertName: 'my-tls',
      pullCredName: 'docker-pull-creds',
    });
    expect(warnings).toEqual(['unknown configuration key "domain" is ignored (line 12)']);
  });

  it('finds the file from --config and from ANTIDOTE_CONFIG', () => {
    const file = fixture('sample-antidote-config.yml');
    expect(loadConfig({ argv: ['--config', file], env: {} }).config.instanceId).toBe('foobar');
    expect(loadConfig({ argv: [`--config=${file}`], env: {} }).config.instanceId).toBe('foobar');
    expect(loadConfig({ argv: [], env: { ANTIDOTE_CONFIG: file } }).config.instanceId).toBe('foobar');
  });

  it('applies ANTIDOTE_* overrides over the file, typed by the key', () => {
    const { config } = loadConfig({
      path: fixture('sample-antidote-config.yml'),
      env: {
        ANTIDOTE_INSTANCE_ID: 'override',
        ANTIDOTE_LIVE_LESSON_TTL: '5',
        ANTIDOTE_ALLOW_EGRESS: 'true',
        ANTIDOTE_DATABASE_URL: 'postgres://u:p@db/antidote',
        ANTIDOTE_ENABLED_SERVICES: 'scheduler, api',
        ANTIDOTE_TIMEOUTS_POD_RUNNING_SECONDS: '12',
      },
    });
    expect(config.instanceId).toBe('override');
    expect(config.liveLessonTTL).toBe(5);
    expect(config.allowEgress).toBe(true);
    expect(config.database.url).toBe('postgres://u:p@db/antidote');
    expect(config.enabledServices).toEqual(['scheduler', 'api']);
    expect(config.timeouts.podRunningSeconds).toBe(12);
  });

  it('names environment variables after the key path', () => {
    expect(envNameOf(['backendConfigs', 'kubernetes', 'inCluster'])).toBe('ANTIDOTE_BACKEND_CONFIGS_KUBERNETES_IN_CLUSTER');
    expect(envNameOf(['liveSessionTTL'])).toBe('ANTIDOTE_LIVE_SESSION_TTL');
  });

  it('warns about ANTIDOTE_* variables that match no key, except test harness ones', () => {
    const { warnings } = parseConfig(minimal, { env: { ANTIDOTE_NOPE: '1', ANTIDOTE_TEST_PG_URL: 'x' } });
    expect(warnings).toEqual(['environment variable ANTIDOTE_NOPE matches no configuration key and is ignored']);
  });

  it('has the reference §10 limits as per-phase timeout defaults, and the new keys', () => {
    const { config } = parseConfig(minimal);
    expect(config.timeouts).toMatchObject({
      podRunningSeconds: 300,
      reachabilitySeconds: 600,
      oldJobsGoneSeconds: 60,
      configJobSeconds: 600,
      namespaceDeleteSeconds: 120,
    });
    expect(config.gc.intervalSeconds).toBe(60);
    expect(config.database.url).toBe('sqlite:.antidote/antidote.sqlite');
    expect(config.images).toEqual({
      configurator: 'antidotelabs/configurator:latest',
      jupyter: 'antidotelabs/jupyter:latest',
      copier: 'bash',
      imageVersion: 'latest',
    });
  });

  it('derives platform images from imageOrg instead of hard-coding antidotelabs', () => {
    const { config } = parseConfig({ ...minimal, imageOrg: 'registry.example.com/labs' });
    expect(config.images.configurator).toBe('registry.example.com/labs/configurator:latest');
  });
});

describe('invalid configuration fails naming the key and the problem', () => {
  it.each([
    [{ curriculumDir: '/c' }, 'instanceId: InstanceID has no default and must be provided'],
    [{ instanceId: 'x' }, 'curriculumDir: CurriculumDir has no default and must be provided'],
    [{ ...minimal, instanceId: 'Not_A_Label' }, 'instanceId: must be a DNS-1123 label'],
    [{ ...minimal, instanceId: 'a'.repeat(MAX_INSTANCE_ID_LENGTH + 1) }, `instanceId: must be at most ${MAX_INSTANCE_ID_LENGTH} characters`],
    [{ ...minimal, tier: 'staging' }, 'tier: '],
    [{ ...minimal, httpPort: 'eighty' }, 'httpPort: '],
    [{ ...minimal, backend: 'docker' }, 'backend: Unsupported backend'],
    [{ ...minimal, timeouts: { podRunningSeconds: -1 } }, 'timeouts.podRunningSeconds: '],
    // Written into the page's Content-Security-Policy: https sources only, nothing that could add a directive.
    [{ ...minimal, api: { web: { mediaSources: ['http:'] } } }, 'api.web.mediaSources.0: must be "https:" or an https origin'],
    [
      { ...minimal, api: { web: { mediaSources: ["https://cdn.example; script-src 'unsafe-inline'"] } } },
      'api.web.mediaSources.0: must be "https:" or an https origin',
    ],
    [{ ...minimal, api: { web: { mediaSources: ['*'] } } }, 'api.web.mediaSources.0: must be "https:" or an https origin'],
  ])('%j', (input, expected) => {
    const problems = problemsOf(() => parseConfig(input));
    expect(problems.some((problem) => problem.startsWith(expected))).toBe(true);
  });

  it('reports every problem at once', () => {
    expect(problemsOf(() => parseConfig({ tier: 'x', httpPort: -1 }))).toHaveLength(4);
  });

  it("checks the api's edge settings: origins without a path, host names without a scheme, headers due before the whole request", () => {
    const api = {
      corsOrigins: ['https://labs.example.org', 'http://127.0.0.1:4200', '*'],
      allowedHosts: ['labs.example.org', '.example.net', '*.example.com', '::1', '[::1]', '10.1.2.3', '*'],
    };
    expect(parseConfig({ ...minimal, api }).config.api).toMatchObject(api);
    const problems = problemsOf(() =>
      parseConfig({
        ...minimal,
        api: {
          corsOrigins: ['https://labs.example.org/acore', 'labs.example.org'],
          allowedHosts: ['https://labs.example.org', 'labs.example.org:443'],
          headersTimeoutSeconds: 60,
        },
      }),
    );
    expect(problems.map((problem) => problem.split(':')[0])).toEqual([
      'api.corsOrigins.0',
      'api.corsOrigins.1',
      'api.allowedHosts.0',
      'api.allowedHosts.1',
      'api.headersTimeoutSeconds',
    ]);
  });

  it('reports a bad environment value by its variable name', () => {
    expect(problemsOf(() => parseConfig(minimal, { env: { ANTIDOTE_HTTP_PORT: 'x' } }))).toContain('ANTIDOTE_HTTP_PORT: "x" is not a number');
  });

  it('refuses an unreadable file, broken YAML and a non-mapping top level with a clear message', () => {
    const dir = mkdtempSync(join(tmpdir(), 'antidote-config-'));
    writeFileSync(join(dir, 'broken.yml'), 'instanceId: [unclosed\n');
    writeFileSync(join(dir, 'list.yml'), '- a\n- b\n');
    expect(problemsOf(() => loadConfig({ path: join(dir, 'missing.yml'), env: {} }))[0]).toMatch(/^cannot read the file/);
    expect(problemsOf(() => loadConfig({ path: join(dir, 'broken.yml'), env: {} }))[0]).toMatch(/^not valid YAML/);
    expect(problemsOf(() => loadConfig({ path: join(dir, 'list.yml'), env: {} }))).toEqual(['the top level must be a mapping of keys']);
  });

  it('refuses a YAML alias bomb instead of expanding it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'antidote-config-'));
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 12; i++)
      lines.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    writeFileSync(join(dir, 'bomb.yml'), `${lines.join('\n')}\ninstanceId: x\ncurriculumDir: /c\n`);
    expect(problemsOf(() => loadConfig({ path: join(dir, 'bomb.yml'), env: {} }))[0]).toMatch(/^not valid YAML/);
  });

  it('names the line of each bad key in the file, and suggests the key an unknown one was meant to be', () => {
    const dir = mkdtempSync(join(tmpdir(), 'antidote-config-'));
    const file = join(dir, 'antidote-config.yml');
    writeFileSync(file, 'instanceId: antidote\ncurriculumDir: /c\nhttpPort: eighty\nlivLessonTTL: 5\napi:\n  adminTokn: x\nadminToken: y\nnope: 1\n');
    const issuesOf = (unknownKeys: 'warn' | 'error') => {
      try {
        loadConfig({ path: file, env: {}, unknownKeys });
      } catch (error) {
        if (error instanceof ConfigError) return { source: error.source, issues: error.issues };
      }
      throw new Error('expected a ConfigError');
    };
    expect(issuesOf('warn')).toEqual({ source: file, issues: [{ key: 'httpPort', message: expect.stringMatching(/expected number/), line: 3 }] });
    expect(issuesOf('error').issues).toEqual([
      { key: 'livLessonTTL', message: 'unknown configuration key (did you mean "liveLessonTTL"?)', line: 4 },
      { key: 'api.adminTokn', message: 'unknown configuration key (did you mean "api.adminToken"?)', line: 6 },
      { key: 'adminToken', message: 'unknown configuration key (did you mean "api.adminToken"?)', line: 7 },
      { key: 'nope', message: 'unknown configuration key', line: 8 },
      { key: 'httpPort', message: expect.stringMatching(/expected number/), line: 3 },
    ]);
    writeFileSync(file, 'instanceId: antidote\ncurriculumDir: /c\nhttpPort: 1\nhttpPort: 2\n');
    expect(problemsOf(() => loadConfig({ path: file, env: {} }))[0]).toMatch(/^not valid YAML: .* \(line 4\)$/);
  });
});

describe('warmPools', () => {
  it('is empty by default: no pools, nothing changes for existing configs', () => {
    expect(parseConfig(minimal, { env: {} }).config.warmPools).toEqual({});
  });

  it('reads size and maxAge per lesson slug; maxAge defaults to an hour', () => {
    const { config } = parseConfig({ ...minimal, warmPools: { 'network-automation': { size: 2, maxAge: 600 }, 'bgp-basics': { size: 1 } } }, { env: {} });
    expect(config.warmPools).toEqual({ 'network-automation': { size: 2, maxAge: 600 }, 'bgp-basics': { size: 1, maxAge: 3600 } });
  });

  it('reads an adaptive pool: min defaults to 0, maxAge to an hour', () => {
    const { config } = parseConfig(
      { ...minimal, warmPools: { 'network-automation': { adaptive: true, max: 8 }, 'bgp-basics': { adaptive: true, min: 1, max: 4, maxAge: 60 } } },
      { env: {} },
    );
    expect(config.warmPools).toEqual({
      'network-automation': { adaptive: true, min: 0, max: 8, maxAge: 3600 },
      'bgp-basics': { adaptive: true, min: 1, max: 4, maxAge: 60 },
    });
  });

  it.each([
    ['unset: a quarter of maxLiveLessons, rounded up', {}, 50],
    ['unset with a cap of 10', { maxLiveLessons: 10 }, 3],
    ['unset with no cap: unlimited', { maxLiveLessons: 0 }, Number.POSITIVE_INFINITY],
    ['given', { poolBudget: 7 }, 7],
    ['0: unlimited', { poolBudget: 0 }, Number.POSITIVE_INFINITY],
  ])('scheduler.poolBudget %s', (_name, scheduler, expected) => {
    expect(poolBudgetOf(parseConfig({ ...minimal, scheduler }, { env: {} }).config.scheduler)).toBe(expected);
  });

  it.each([
    ['a slug that is no lesson slug', { Bad_Slug: { size: 1 } }, 'warmPools'],
    ['a negative size', { lesson: { size: -1 } }, 'warmPools.lesson.size'],
    ['a fractional size', { lesson: { size: 1.5 } }, 'warmPools.lesson.size'],
    ['a negative maxAge', { lesson: { size: 1, maxAge: -5 } }, 'warmPools.lesson.maxAge'],
    ['an unknown key', { lesson: { size: 1, ttl: 5 } }, 'warmPools.lesson'],
    ['neither size nor adaptive', { lesson: { maxAge: 60 } }, 'warmPools.lesson.size'],
    ['min on a fixed-size pool', { lesson: { size: 1, min: 1 } }, 'warmPools.lesson.min'],
    ['an adaptive pool without max', { lesson: { adaptive: true, min: 1 } }, 'warmPools.lesson.max'],
    ['an adaptive pool with a size', { lesson: { adaptive: true, size: 2, max: 3 } }, 'warmPools.lesson.size'],
    ['an adaptive pool with min above max', { lesson: { adaptive: true, min: 4, max: 3 } }, 'warmPools.lesson.min'],
    ['adaptive: false', { lesson: { adaptive: false, size: 1 } }, 'warmPools.lesson.adaptive'],
  ])('refuses %s', (_name, warmPools, path) => {
    expect(problemsOf(() => parseConfig({ ...minimal, warmPools }, { env: {} })).join('\n')).toContain(path);
  });
});
