import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANTICTL_BIN, antictlUp, type UpPlatform } from './support/antictl-up.js';
import { labPage } from './support/lab-page.js';

const LONG = 300_000;

/** antictl from the platform's folder: it finds the api and the admin token `antictl up` wrote down. */
const antictl = (cwd: string, args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !['ANTIDOTE_API', 'ANTIDOTE_ADMIN_TOKEN', 'ANTIDOTE_NATS_URL'].includes(name)),
    );
    execFile(process.execPath, [ANTICTL_BIN, ...args], { cwd, env, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });

/**
 * The waiting room as antidote-web meets it, on the platform as a user runs it (every app a process of
 * its own on SQLite): with one lab of capacity taken, the unchanged lab page's lab waits in line —
 * INITIALIZED, as the original showed a lab starting — and becomes READY once the capacity frees.
 */
describe('antidote-web through the waiting room (antictl up, scheduler.maxLiveLessons 1)', () => {
  let platform: UpPlatform;
  beforeAll(async () => {
    platform = await antictlUp({ config: { api: { rateLimitPerMinute: 0 }, scheduler: { maxLiveLessons: 1 } } });
  });
  afterAll(async () => {
    expect(await platform?.stop()).toBe(0);
  });

  const post = async (path: string, body: unknown): Promise<Record<string, unknown>> =>
    (await (
      await fetch(`${platform.api}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } })
    ).json()) as Record<string, unknown>;

  it(
    'the lab page polls a queued lab (INITIALIZED, its place beside it) to READY, then changes its stage; antictl queue shows it waiting',
    { timeout: LONG },
    async () => {
      // Another learner holds the only lab.
      const sessionId = String((await post('/exp/livesession', {})).ID);
      const holder = String((await post('/exp/livelesson', { lessonSlug: 'linux-basics', sessionId, lessonStage: 0 })).id);
      await expect
        .poll(async () => ((await (await fetch(`${platform.api}/exp/livelesson/${holder}`)).json()) as { Status: string }).Status, {
          timeout: 120_000,
          interval: 250,
        })
        .toBe('READY');

      const page = labPage({ api: platform.api, slug: 'network-automation' });
      let queued: { waiting: number; line: { liveLessonId: string; lessonSlug: string; position: number }[] } = { waiting: 0, line: [] };
      await expect
        .poll(
          async () => {
            const shown = await antictl(platform.home, ['--json', 'queue']);
            queued = JSON.parse(shown.stdout) as typeof queued;
            return queued.waiting;
          },
          { timeout: 60_000, interval: 500 },
        )
        .toBe(1);
      expect(queued.line[0]).toMatchObject({ position: 1, lessonSlug: 'network-automation' });
      const waitingLab = await (await fetch(`${platform.api}/exp/livelesson/${queued.line[0].liveLessonId}`)).json();
      expect(waitingLab).toMatchObject({ Status: 'INITIALIZED', Error: false, QueuePosition: 1 });
      const plain = await antictl(platform.home, ['queue']);
      expect(plain.code).toBe(0);
      expect(plain.stdout).toMatch(/^1 of 1 labs in use; 1 waiting \(at most 500\)/);
      expect(plain.stdout).toMatch(new RegExp(`^\\s+1  ${queued.line[0].liveLessonId}\\s+network-automation\\s+127\\.0\\.0\\.1`, 'm'));

      // The other learner ends their lab: the page's lab is admitted, built, and the page carries on.
      expect((await fetch(`${platform.api}/exp/livelesson/${holder}?sessionId=${sessionId}`, { method: 'DELETE' })).status).toBe(200);
      const report = await page;
      expect(report.id).toBe(queued.line[0].liveLessonId);
      expect(
        report.polls.every((poll) => /^200 (INITIALIZED|BOOTING|CONFIGURATION|READY) [01]$/.test(poll)),
        report.polls.join('\n'),
      ).toBe(true);
      expect(report.polls.filter((poll) => poll === '200 INITIALIZED 0').length).toBeGreaterThan(1);
      expect(report.polls).toContain('200 READY 0');
      expect(report.polls.at(-1)).toBe('200 READY 1');
      expect(report.stageChange).toBe(200);
      expect(report.deleted).toBe(200);
    },
  );
});
