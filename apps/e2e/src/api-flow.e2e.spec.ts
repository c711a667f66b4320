import { namespaceName } from '@antidote/lesson-objects';
import { DATABASE_KINDS, testDatabaseUrl } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { antictlUp, type UpPlatform } from './support/antictl-up.js';
import { expClient, namespaceStatus, setSimFaults, type GatewayErrorBody } from './support/exp-client.js';
import { badRequests } from './support/bad-requests.js';

const INSTANCE = 'antidote-e2e';
const ADMIN_TOKEN = 'e2e-admin-token';
const LONG = 300_000;

/** Small limits, a short idle TTL and quick re-drive, so each rule shows within seconds. */
const platformConfig = (databaseUrl: string) => ({
  instanceId: INSTANCE,
  database: { url: databaseUrl },
  liveLessonTTL: 0.15, // minutes: a lesson idle for 9 s is reaped
  liveLessonLimit: 1,
  liveSessionLimit: 2,
  gc: { intervalSeconds: 1 },
  scheduler: { redriveIntervalSeconds: 1, redriveAfterSeconds: 2, claimLeaseSeconds: 5 },
  api: { adminToken: ADMIN_TOKEN, rateLimitPerMinute: 0 },
});

/**
 * The original /exp API end to end over plain HTTP, every app a process of its own (`antictl up`), on
 * each database kind: a lab's whole life, idle expiry, the limits, a scheduler killed mid-provisioning,
 * and bad requests answered 4xx in the gateway error shape.
 */
describe.each(DATABASE_KINDS)('the /exp API over real processes on %s', (kind) => {
  let platform: UpPlatform;
  const namespaceOf = (id: string): string => namespaceName(INSTANCE, id);
  const setFaults = (faults: Record<string, unknown>): Promise<void> => setSimFaults(platform.kubeSim, faults);

  beforeAll(async () => {
    const { url } = await testDatabaseUrl(kind);
    platform = await antictlUp({ config: platformConfig(url), flags: ['--restart'] });
  });

  afterAll(async () => {
    expect(await platform?.stop()).toBe(0);
  });

  it('gives network-automation READY, changes its stage, keeps it alive, and deletes it with its namespace', { timeout: LONG }, async () => {
    const exp = expClient(platform.api, '10.1.0.1', ADMIN_TOKEN);
    const session = await exp.newSession({ persistent: true });
    const id = await exp.requestLesson(session, 'network-automation', 0);
    const ready = await exp.waitUntilReady(id, 0);
    expect(Object.keys(ready.LiveEndpoints).sort()).toEqual(['linux1', 'vqfx1', 'vqfx2']);
    expect(Object.values(ready.LiveEndpoints).every((endpoint) => endpoint.Host)).toBe(true);
    expect(await namespaceStatus(platform.kubeSim, namespaceOf(id))).toBe(200);

    expect(await exp.requestLesson(session, 'network-automation', 1)).toBe(id);
    const staged = await exp.waitUntilReady(id, 1);
    expect(staged.GuideContents).not.toBe(ready.GuideContents);

    // The same stage again is a keep-alive: the same lab, not provisioned or configured again.
    expect(await exp.requestLesson(session, 'network-automation', 1)).toBe(id);
    expect((await exp.get(`/exp/livelesson/${id}`)).body).toMatchObject({ Status: 'READY', CurrentStage: 1, PhaseTimes: staged.PhaseTimes });

    expect(await exp.delete(`/exp/livelesson/${id}?sessionId=${session}`)).toEqual({ status: 200, body: { success: true } });
    await expect.poll(async () => (await exp.get(`/exp/livelesson/${id}`)).status).toBe(404);
    expect((await exp.get<GatewayErrorBody>(`/exp/livelesson/${id}`)).body).toMatchObject({
      error: 'livelesson not found',
      code: 5,
      message: 'livelesson not found',
    });
    await expect.poll(() => namespaceStatus(platform.kubeSim, namespaceOf(id))).toBe(404);
  });

  it('reaps a lesson left idle past liveLessonTTL with its namespace; one in a persistent session stays', { timeout: LONG }, async () => {
    const exp = expClient(platform.api, '10.1.0.2', ADMIN_TOKEN);
    const keptSession = await exp.newSession({ persistent: true });
    const kept = await exp.requestLesson(keptSession, 'linux-basics');
    const idle = await exp.requestLesson(await exp.newSession(), 'linux-basics');
    await expect.poll(() => namespaceStatus(platform.kubeSim, namespaceOf(idle))).toBe(200);
    await expect.poll(async () => (await exp.get(`/exp/livelesson/${idle}`)).status, { timeout: 60_000, interval: 500 }).toBe(404);
    await expect.poll(() => namespaceStatus(platform.kubeSim, namespaceOf(idle))).toBe(404);
    expect((await exp.get(`/exp/livelesson/${kept}`)).status).toBe(200);
    expect(await namespaceStatus(platform.kubeSim, namespaceOf(kept))).toBe(200);
    expect((await exp.delete(`/exp/livelesson/${kept}?sessionId=${keptSession}`)).status).toBe(200);
  });

  it('refuses a session past the per-IP limit and a live lesson past the per-session limit with the original errors', { timeout: LONG }, async () => {
    const exp = expClient(platform.api, '10.1.0.3', ADMIN_TOKEN);
    const session = await exp.newSession({ persistent: true });
    await exp.newSession();
    const sessionsText = 'This IP address has exceeded the maximum number of liveSessions';
    expect(await exp.post('/exp/livesession', {})).toMatchObject({ status: 429, body: { error: sessionsText, code: 8, message: sessionsText } });
    expect((await expClient(platform.api, '10.1.0.4').post('/exp/livesession', {})).status).toBe(200);

    const lesson = await exp.requestLesson(session, 'linux-basics');
    const lessonsText = 'This session address has exceeded the maximum number of liveLessons';
    expect(await exp.post('/exp/livelesson', { sessionId: session, lessonSlug: 'web-services', lessonStage: 0 })).toMatchObject({
      status: 429,
      body: { error: lessonsText, code: 8, message: lessonsText },
    });
    // Asking for the lesson it has is not a new one: the limit does not apply.
    expect(await exp.requestLesson(session, 'linux-basics')).toBe(lesson);
    expect((await exp.delete(`/exp/livelesson/${lesson}?sessionId=${session}`)).status).toBe(200);
  });

  it('still brings a lesson to READY when the scheduler is killed while it provisions', { timeout: LONG }, async () => {
    await setFaults({ podStartDelayMs: 5000 });
    try {
      const exp = expClient(platform.api, '10.1.0.5', ADMIN_TOKEN);
      const session = await exp.newSession({ persistent: true });
      const id = await exp.requestLesson(session, 'network-automation');
      await expect.poll(async () => (await exp.get<{ Status: string }>(`/exp/livelesson/${id}`)).body.Status, { interval: 100 }).toBe('BOOTING');
      const killed = platform.pidOf('scheduler');
      const from = platform.output().length;
      process.kill(killed, 'SIGKILL');
      await platform.waitForOutput(/^scheduler exited \(SIGKILL\); restarted \(pid \d+\)$/m, 30_000, from);
      expect(platform.pidOf('scheduler')).not.toBe(killed);
      const ready = await exp.waitUntilReady(id, 0, 120_000);
      expect(Object.keys(ready.LiveEndpoints).sort()).toEqual(['linux1', 'vqfx1', 'vqfx2']);
      expect((await exp.delete(`/exp/livelesson/${id}?sessionId=${session}`)).status).toBe(200);
    } finally {
      await setFaults({ podStartDelayMs: 300 });
    }
  });

  describe('bad requests', () => {
    let session = '';
    beforeAll(async () => {
      session = await expClient(platform.api, '10.1.0.6', ADMIN_TOKEN).newSession({ persistent: true });
    });

    it.each(badRequests)('$name → $status', async ({ send, status, code, message }) => {
      const answer = await send(expClient(platform.api, '10.1.0.6'), session);
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);
      const text = message instanceof RegExp ? expect.stringMatching(message) : message;
      expect(answer.body).toMatchObject({ code, error: text, message: text });
      expect(answer.body.error).toBe(answer.body.message);
    });
  });
});
