import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = join(import.meta.dirname, '..', 'bin', 'antictl.js');

/** The built CLI, run from `cwd` (a fresh folder: no platform of ours around it). */
const antictl = (cwd: string, args: string[], env: NodeJS.ProcessEnv = process.env) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd, env, timeout: 150_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });

/** One line on stderr, no stack trace. */
const oneLine = (stderr: string): string => {
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(stderr.trim().split('\n')).toHaveLength(1);
  return stderr.trim();
};

describe('antictl up refuses each mistake before it starts anything', () => {
  let home = '';
  let holder: Server;
  let heldPort = 0;

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'antictl-up-'));
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    heldPort = (holder.address() as { port: number }).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => holder.close(resolve));
  });

  const config = (name: string, text: string): string => {
    writeFileSync(join(home, name), text);
    return name;
  };

  it('a typo in the config: the file, the line, the key and the key it was meant to be', async () => {
    const file = config('typo.yml', 'tier: local\nlivLessonTTL: 5\n');
    const result = await antictl(home, ['up', '--config', file, '--dir', 'state']);
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toBe('antictl: typo.yml:2: livLessonTTL: unknown configuration key (did you mean "liveLessonTTL"?)');
    expect(existsSync(join(home, 'state'))).toBe(false);
  });

  it('httpPort: "eighty" is refused, not replaced', async () => {
    const file = config('eighty.yml', 'httpPort: eighty\n');
    const result = await antictl(home, ['up', '--config', file]);
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toMatch(/^antictl: eighty\.yml:1: httpPort: .*expected number/);
  });

  it('every problem of a config, each with its line; JSON with a code under --json', async () => {
    const file = config('two.yml', 'httpPort: eighty\napi:\n  adminTokn: x\n');
    const plain = await antictl(home, ['up', '--config', file]);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(
      /^antictl: two\.yml has 2 problems\n {2}two\.yml:3: api\.adminTokn: unknown configuration key \(did you mean "api\.adminToken"\?\)\n {2}two\.yml:1: httpPort: /,
    );
    const json = await antictl(home, ['--json', 'up', '--config', file]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr)).toMatchObject({
      error: {
        code: 'CONFIG_INVALID',
        message: 'two.yml has 2 problems',
        details: [expect.stringMatching(/^two\.yml:3: /), expect.stringMatching(/^two\.yml:1: /)],
      },
    });
  });

  it('a curriculum folder that does not exist, or one with problems: listed, exit 1', async () => {
    const missing = await antictl(home, ['up', '--curriculum', join(home, 'nowhere')]);
    expect(missing.code).toBe(1);
    expect(oneLine(missing.stderr)).toMatch(/^antictl: curriculum .*nowhere: cannot open the curriculum directory: ENOENT/);
    const broken = join(home, 'broken');
    mkdirSync(join(broken, 'lessons', 'bad'), { recursive: true });
    writeFileSync(join(broken, 'curriculum.meta.yaml'), 'name: Broken\n');
    writeFileSync(join(broken, 'lessons', 'bad', 'lesson.meta.yaml'), 'name: Bad\nslug: bad\n');
    const invalid = await antictl(home, ['up', '--curriculum', broken]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/^antictl: curriculum .*broken has \d+ problems\n/);
    expect(invalid.stderr).toMatch(/^ {2}lessons\/bad\/lesson\.meta\.yaml: stages: must have at least one stage$/m);
  });

  it('a port in use: the port and the process that holds it', async () => {
    const flag = await antictl(home, ['up', '--api-port', String(heldPort)]);
    expect(flag.code).toBe(1);
    expect(oneLine(flag.stderr)).toMatch(
      new RegExp(`^antictl: port ${heldPort} is already in use by pid ${process.pid} \\(.*node.*\\): stop it, or choose another port with --api-port$`),
    );
    // the config's httpPort is the api's port when --api-port is not given
    const file = config('port.yml', `httpPort: ${heldPort}\n`);
    const fromConfig = await antictl(home, ['up', '--config', file]);
    expect(fromConfig.code).toBe(1);
    expect(oneLine(fromConfig.stderr)).toMatch(
      new RegExp(`^antictl: port ${heldPort} is already in use by pid ${process.pid} .*--api-port \\(or httpPort in port\\.yml\\)$`),
    );
  });

  it('nats-server missing: the install command, and no folder left behind', async () => {
    const temp = mkdtempSync(join(tmpdir(), 'antictl-tmp-'));
    const result = await antictl(home, ['up', '--dir', 'nats-state', '--api-port', '0'], { ...process.env, PATH: '/nonexistent', TMPDIR: temp });
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toMatch(/^antictl: nats-server is not installed .*sudo apt-get install -y nats-server/);
    expect(existsSync(join(home, 'nats-state'))).toBe(false);
    expect(readdirSync(temp)).toEqual([]);
  });

  it('bad arguments are usage errors (exit 2), JSON under --json', async () => {
    const port = await antictl(home, ['--json', 'up', '--api-port', 'eighty']);
    expect(port.code).toBe(2);
    expect(JSON.parse(port.stderr)).toMatchObject({ error: { code: 'USAGE', message: '--api-port must be a port number (0 to 65535), not "eighty"' } });
    const unknown = await antictl(home, ['--json', 'frobnicate']);
    expect(unknown.code).not.toBe(0);
    expect(JSON.parse(unknown.stderr)).toMatchObject({ error: { code: 'UNKNOWN_COMMAND' } });
  });
});

describe('antictl without a local platform', () => {
  it('lesson list asks for the admin token; every error is JSON with a code under --json', async () => {
    const home = mkdtempSync(join(tmpdir(), 'antictl-none-'));
    const env = { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'ANTIDOTE_ADMIN_TOKEN')), ANTIDOTE_API: 'http://127.0.0.1:9' };
    const list = await antictl(home, ['lesson', 'list'], env);
    expect(list.code).toBe(2);
    expect(oneLine(list.stderr)).toMatch(/^antictl: listing every live lesson needs the admin token: run `antictl up` here/);
    const json = await antictl(home, ['--json', 'lesson', 'get', 'abcdef'], env);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr)).toMatchObject({
      error: { code: 'API_UNREACHABLE', message: expect.stringMatching(/cannot reach the Antidote API at http:\/\/127\.0\.0\.1:9/) },
    });
    const stage = await antictl(home, ['--json', 'lesson', 'request', 'x', '--stage', 'two'], env);
    expect(stage.code).toBe(2);
    expect(JSON.parse(stage.stderr)).toMatchObject({ error: { code: 'BAD_STAGE' } });
  });
});
