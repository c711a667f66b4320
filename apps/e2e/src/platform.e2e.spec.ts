import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { KubeApi } from '@antidote/kube-sim';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANTICTL_BIN, antictlUp, type UpPlatform } from './support/antictl-up.js';

const run = (cwd: string | undefined, args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    // Without the variables that name a platform: the one found must be the one `antictl up` wrote down.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !['ANTIDOTE_API', 'ANTIDOTE_ADMIN_TOKEN', 'ANTIDOTE_NATS_URL'].includes(name)),
    );
    execFile(process.execPath, [ANTICTL_BIN, ...args], { cwd, env, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
const antictl = (...args: string[]) => run(undefined, args);
const modeOf = (path: string): number => statSync(path).mode & 0o777;
/** What an earlier run (before the state folder was private) left readable by every local user. */
const EARLIER_RUN = ['kubeconfig', 'nats-credentials.json', 'antidote-config.yml', 'logs/api.log', 'logs/kube-sim.log'];

/**
 * The one-command platform as a user runs it: `antictl up` starts nats-server, kube-sim and the four
 * built apps as separate processes on SQLite; `antictl lesson …` drives a lab through the REST API.
 */
describe('antictl up: the whole platform in processes', () => {
  let platform: UpPlatform;
  let api = '';
  let nats = '';
  const adminToken = (): string => (JSON.parse(readFileSync(join(platform.dir, 'platform.json'), 'utf8')) as { adminToken: string }).adminToken;

  beforeAll(async () => {
    platform = await antictlUp({
      prepare: (dir) => {
        mkdirSync(join(dir, 'logs'), { recursive: true });
        for (const name of EARLIER_RUN) writeFileSync(join(dir, name), '', { mode: 0o644 });
        chmodSync(dir, 0o755);
        chmodSync(join(dir, 'logs'), 0o755);
      },
    });
    ({ api, nats } = platform);
  });

  afterAll(async () => {
    await platform?.stop();
  });

  it('serves the sample curriculum through the original API', async () => {
    const lessons = (await (await fetch(`${api}/exp/lesson`)).json()) as { lessons: { Slug: string }[] };
    expect(lessons.lessons.map((lesson) => lesson.Slug).sort()).toEqual([
      'host-networking',
      'jupyter-intro',
      'linux-basics',
      'network-automation',
      'web-services',
    ]);
    // the admin token is in there: for its owner only
    expect(statSync(join(platform.dir, 'platform.json')).mode & 0o777).toBe(0o600);
    expect(statSync(join(platform.dir, 'antidote-config.yml')).mode & 0o777).toBe(0o600);
  });

  it('keeps its state folder to its user: the folder 0700, the database, logs, kubeconfig and credentials 0600, those of an earlier run too', () => {
    const files = readdirSync(platform.dir, { recursive: true, encoding: 'utf8' }).filter((name) => !statSync(join(platform.dir, name)).isDirectory());
    expect(files).toEqual(
      expect.arrayContaining([
        'antidote.sqlite',
        'kubeconfig',
        'nats-credentials.json',
        'platform.json',
        'antidote-config.yml',
        join('logs', 'api.log'),
        join('logs', 'scheduler.log'),
      ]),
    );
    expect(Object.fromEntries(files.map((name) => [name, modeOf(join(platform.dir, name))]))).toEqual(Object.fromEntries(files.map((name) => [name, 0o600])));
    expect(modeOf(platform.dir)).toBe(0o700);
    expect(modeOf(join(platform.dir, 'logs'))).toBe(0o700);
  });

  it("answers Kubernetes calls with kube-sim's token only, and kubectl with the kubeconfig it wrote", async () => {
    const kubeconfig = join(platform.dir, 'kubeconfig');
    const written = parse(readFileSync(kubeconfig, 'utf8')) as { users: { name: string; user: Record<string, unknown> }[] };
    const anonymous = join(platform.home, 'no-token.kubeconfig');
    writeFileSync(anonymous, stringify({ ...written, users: [{ name: written.users[0].name, user: {} }] }));
    for (const path of ['/api/v1/secrets', '/api/v1/namespaces', '/_sim/requests'])
      expect((await KubeApi.fromFile(anonymous).call('GET', path)).code).toBe(401);
    expect((await platform.kubeSim.call('GET', '/api/v1/namespaces/prod/secrets/tls-certificate')).code).toBe(200);
    const { stdout } = await promisify(execFile)('kubectl', ['--kubeconfig', kubeconfig, 'get', 'secrets', '-n', 'prod', '-o', 'name'], { timeout: 120_000 });
    expect(stdout).toBe('secret/tls-certificate\n');
  });

  // Upper bound for a loaded machine (every step is a CLI process of its own), not a target.
  it('gives a learner a lab in one request, changes its stage, and takes it away', { timeout: 300_000 }, async () => {
    const requested = await antictl('--json', 'lesson', 'request', 'network-automation', '--api', api);
    expect(requested.stderr).toBe('');
    const lab = JSON.parse(requested.stdout.slice(requested.stdout.indexOf('{'))) as {
      ID: string;
      sessionId: string;
      Status: string;
      LiveEndpoints: Record<string, { Host: string; SSHUser: string; SSHPassword: string }>;
    };
    expect(lab.Status).toBe('READY');
    expect(Object.keys(lab.LiveEndpoints).sort()).toEqual(['linux1', 'vqfx1', 'vqfx2']);
    expect(Object.values(lab.LiveEndpoints).every((endpoint) => endpoint.Host && endpoint.SSHUser)).toBe(true);
    // Device passwords go to no one holding the lab id, only to the admin token (`antictl up` wrote it down for its folder).
    expect(Object.values(lab.LiveEndpoints).map((endpoint) => endpoint.SSHPassword)).toEqual(['', '', '']);
    expect((await antictl('lesson', 'get', lab.ID, '--api', api)).stdout).toMatch(/login antidote \(password: with the admin token\)/);
    const asOperator = JSON.parse((await run(platform.home, ['--json', 'lesson', 'get', lab.ID])).stdout) as typeof lab;
    expect(asOperator.LiveEndpoints.linux1.SSHPassword).toBe('antidotepassword');
    // Without the admin token the api shows no one the lab's session: the CLI asks for it.
    const unnamed = await antictl('lesson', 'stage', lab.ID, '1', '--api', api);
    expect(unnamed).toMatchObject({ code: 2, stderr: expect.stringMatching(/--session <id>/) });
    const staged = await antictl('lesson', '--session', lab.sessionId, 'stage', lab.ID, '1', '--api', api);
    expect(staged).toMatchObject({ code: 0, stdout: expect.stringMatching(/READY at stage 1/) });
    // From the folder `antictl up` keeps its state in, no flags: the API, NATS and admin token it wrote down.
    const listed = await run(platform.home, ['lesson', 'list']);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    expect(listed.stdout).toMatch(new RegExp(`^${lab.ID}  network-automation  stage 1  READY$`, 'm'));
    const listedJson = JSON.parse((await run(platform.home, ['--json', 'lesson', 'list'])).stdout) as { ID: string; Status: string }[];
    expect(listedJson).toContainEqual(expect.objectContaining({ ID: lab.ID, Status: 'READY' }));
    expect(await run(platform.home, ['reap', '--dry-run'])).toMatchObject({ code: 0, stdout: expect.stringMatching(/action\(s\); 1 Kubernetes call/) });
    const dryRun = await antictl('reap', '--dry-run', '--nats', nats, '--credentials', join(platform.dir, 'nats-credentials.json'));
    expect(dryRun).toMatchObject({ code: 0, stdout: expect.stringMatching(/action\(s\); 1 Kubernetes call/) });
    expect((await antictl('lesson', 'kill', lab.ID, '--api', api, '--session', lab.sessionId)).code).toBe(0);
    await expect.poll(async () => (await fetch(`${api}/exp/livelesson/${lab.ID}`)).status).toBe(404);
  });

  it('streams every phase over SSE, and a repeated request is a keep-alive', async () => {
    const post = async (path: string, body: unknown) =>
      (await fetch(`${api}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json() as Promise<
        Record<string, string>
      >;
    const session = await post('/exp/livesession', {});
    const { id } = await post('/exp/livelesson', { lessonSlug: 'network-automation', sessionId: session.ID, lessonStage: 0 });
    const stream = await fetch(`${api}/exp/livelesson/${id}/events`);
    expect(stream.headers.get('content-type')).toMatch(/text\/event-stream/);
    const text = await stream.text(); // the stream ends once the lesson is READY
    const statuses = [...text.matchAll(/^data: (.*)$/gm)].map((match) => (JSON.parse(match[1]) as { status?: string }).status).filter(Boolean);
    expect(statuses.at(-1)).toBe('READY');
    // network-automation waits readyDelay (1 s) in CONFIGURATION, so the stream sees that phase whatever the machine's speed.
    expect(statuses).toEqual(expect.arrayContaining(['CONFIGURATION', 'READY']));
    const again = await post('/exp/livelesson', { lessonSlug: 'network-automation', sessionId: session.ID, lessonStage: 0 });
    expect(again.id).toBe(id);
    expect((await antictl('lesson', 'kill', id, '--api', api, '--session', session.ID)).code).toBe(0);
  });

  it('refuses a lesson that does not exist, or a stage it does not have, before creating anything', async () => {
    const sessions = async () =>
      Object.keys(
        ((await (await fetch(`${api}/exp/admin/livesessions`, { headers: { authorization: `Bearer ${adminToken()}` } })).json()) as { items: object }).items,
      ).length;
    const before = await sessions();
    const missing = await antictl('lesson', 'request', 'no-such-lesson', '--api', api);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /^antictl: no lesson "no-such-lesson" in the curriculum \(lessons: host-networking, jupyter-intro, linux-basics, network-automation, web-services\)\n$/,
    );
    const stage = await run(platform.home, ['--json', 'lesson', 'request', 'linux-basics', '--stage', '7']);
    expect(stage.code).toBe(2);
    expect(JSON.parse(stage.stderr)).toEqual({
      error: { code: 'STAGE_OUT_OF_RANGE', message: 'stage 7 is out of range: linux-basics has stages 0 to 1', details: [] },
    });
    expect(await sessions()).toBe(before); // neither created a session first
  });

  it(
    'lists, resizes (0 drains) and resets a warm pool with the admin token it wrote down; refuses an unknown lesson and a bad size',
    { timeout: 300_000 },
    async () => {
      const pool = async (...args: string[]) => {
        const result = await run(platform.home, ['--json', 'pool', ...args]);
        return { ...result, json: result.code === 0 ? (JSON.parse(result.stdout) as unknown) : (JSON.parse(result.stderr) as unknown) };
      };
      expect((await pool('list')).json).toEqual([]);
      expect((await pool('resize', 'linux-basics', '1')).json).toMatchObject({ lesson: 'linux-basics', mode: 'override', size: 1, maxAge: 3600 });
      await expect.poll(async () => (await pool('list')).json).toEqual([expect.objectContaining({ lesson: 'linux-basics', size: 1, ready: 1, building: 0 })]);
      expect((await run(platform.home, ['pool', 'list'])).stdout).toMatch(
        /^linux-basics\s+size 1 \(resized\) {2}ready 1 {2}building 0 {2}retiring 0 {2}maxAge 3600 s$/m,
      );
      expect(await pool('resize', 'no-such-lesson', '1')).toMatchObject({
        code: 1,
        json: { error: { code: 'HTTP_404', message: expect.stringMatching(/no-such-lesson/) } },
      });
      expect(await pool('resize', 'linux-basics', '1.5')).toMatchObject({ code: 2, json: { error: { code: 'BAD_POOL_SIZE' } } });
      expect((await pool('resize', 'linux-basics', '0')).json).toMatchObject({ size: 0 });
      await expect
        .poll(async () => (await pool('list')).json)
        .toEqual([expect.objectContaining({ lesson: 'linux-basics', size: 0, ready: 0, building: 0, retiring: 0 })]);
      expect((await pool('reset', 'linux-basics')).json).toEqual({ success: true });
      expect((await pool('list')).json).toEqual([]);
    },
  );

  it('stops everything it started on Ctrl-C', async () => {
    const config = readFileSync(join(platform.dir, 'antidote-config.yml'), 'utf8');
    const opsPorts = [...config.matchAll(/(?:healthchecker|scheduler|reaper)Port: (\d+)/g)].map((match) => Number(match[1]));
    // Even once nothing reads its output any more (the terminal or pipe it wrote to is gone).
    platform.up.stdout?.destroy();
    platform.up.stderr?.destroy();
    expect(await platform.stop()).toBe(0);
    expect(existsSync(join(platform.dir, 'platform.json'))).toBe(false);
    for (const port of [...opsPorts, Number(new URL(api).port)]) {
      await expect(fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
    }
  });
});
