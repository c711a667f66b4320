import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANTICTL_BIN, antictlUp, type UpPlatform } from './support/antictl-up.js';

const antictl = (...args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [ANTICTL_BIN, ...args], { timeout: 120_000 }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }));
  });

/**
 * The one-command platform as a user runs it: `antictl up` starts nats-server, kube-sim and the four
 * built apps as separate processes on SQLite; `antictl lesson …` drives a lab through the REST API.
 */
describe('antictl up: the whole platform in processes', () => {
  let platform: UpPlatform;
  let api = '';
  let nats = '';

  beforeAll(async () => {
    platform = await antictlUp();
    ({ api, nats } = platform);
  });

  afterAll(async () => {
    await platform?.stop();
  });

  it('serves the sample curriculum through the original API', async () => {
    const lessons = (await (await fetch(`${api}/exp/lesson`)).json()) as { lessons: { Slug: string }[] };
    expect(lessons.lessons.map((lesson) => lesson.Slug).sort()).toEqual(['jupyter-intro', 'linux-basics', 'network-automation', 'web-services']);
  });

  it('gives a learner a lab in one request, changes its stage, and takes it away', async () => {
    const requested = await antictl('--json', 'lesson', 'request', 'network-automation', '--api', api);
    expect(requested.stderr).toBe('');
    const lab = JSON.parse(requested.stdout.slice(requested.stdout.indexOf('{'))) as { ID: string; Status: string; LiveEndpoints: Record<string, { Host: string; SSHUser: string }> };
    expect(lab.Status).toBe('READY');
    expect(Object.keys(lab.LiveEndpoints).sort()).toEqual(['linux1', 'vqfx1', 'vqfx2']);
    expect(Object.values(lab.LiveEndpoints).every((endpoint) => endpoint.Host && endpoint.SSHUser)).toBe(true);
    const staged = await antictl('lesson', 'stage', lab.ID, '1', '--api', api);
    expect(staged).toMatchObject({ code: 0, stdout: expect.stringMatching(/READY at stage 1/) });
    const dryRun = await antictl('reap', '--dry-run', '--nats', nats, '--credentials', join(platform.dir, 'nats-credentials.json'));
    expect(dryRun).toMatchObject({ code: 0, stdout: expect.stringMatching(/action\(s\); 1 Kubernetes call/) });
    expect((await antictl('lesson', 'kill', lab.ID, '--api', api)).code).toBe(0);
    await expect.poll(async () => (await fetch(`${api}/exp/livelesson/${lab.ID}`)).status, { timeout: 20_000 }).toBe(404);
  });

  it('streams every phase over SSE, and a repeated request is a keep-alive', async () => {
    const post = async (path: string, body: unknown) => (await fetch(`${api}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json() as Promise<Record<string, string>>;
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
    expect((await antictl('lesson', 'kill', id, '--api', api)).code).toBe(0);
  });

  it('reports a lesson that does not exist with the original error', async () => {
    const missing = await antictl('lesson', 'request', 'no-such-lesson', '--api', api);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/API 404/);
  });

  it('stops everything it started on Ctrl-C', async () => {
    const config = readFileSync(join(platform.dir, 'antidote-config.yml'), 'utf8');
    const opsPorts = [...config.matchAll(/(?:healthchecker|scheduler|reaper)Port: (\d+)/g)].map((match) => Number(match[1]));
    expect(await platform.stop()).toBe(0);
    for (const port of [...opsPorts, Number(new URL(api).port)]) {
      await expect(fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
    }
  });
});
