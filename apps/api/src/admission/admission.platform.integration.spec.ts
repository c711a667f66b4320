import { LiveLessonStatus } from '@antidote/contracts';
import { healthcheckerService } from '@antidote/healthchecker';
import { schedulerService } from '@antidote/scheduler';
import { startKubeSim, type KubeSim } from '@antidote/kube-sim';
import { startTestPlatform, type TestPlatform } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiService } from '../api.definition.js';

type Services = 'healthchecker' | 'scheduler' | 'api';
const ADMIN_TOKEN = 'admission-admin-token';
const LONG = 300_000;
const SCHEDULER = { redriveIntervalSeconds: 1, redriveAfterSeconds: 1, claimLeaseSeconds: 15, admissionIntervalSeconds: 1 };
/** Generous on a loaded machine: a lab waits rather than failing on a timeout. */
const TIMEOUTS = { podRunningSeconds: 120, reachabilitySeconds: 120, configJobSeconds: 120, namespaceDeleteSeconds: 60 };

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

async function call(base: string, method: string, path: string, body?: unknown, address = '127.0.0.1'): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    // A request the api does not answer is a failure with its name, not a test that hangs.
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown>, headers: response.headers };
}

/** A learner: a session, then a lab of `lessonSlug`; answers the lab request. */
async function learner(base: string, address: string, lessonSlug = 'linux-basics'): Promise<Answer & { sessionId: string }> {
  const session = await call(base, 'POST', '/exp/livesession', {}, address);
  expect(session.status, JSON.stringify(session.body)).toBe(200);
  const sessionId = String(session.body.ID);
  return { ...(await call(base, 'POST', '/exp/livelesson', { lessonSlug, sessionId, lessonStage: 0 }, address)), sessionId };
}

/** Polls the lab as antidote-web's page does (each `everyMs`) until READY; every answer must be 200 and never failed. */
async function followToReady(base: () => string, id: string, address: string, everyMs: number): Promise<string[]> {
  const seen: string[] = [];
  for (const deadline = Date.now() + 240_000; Date.now() < deadline;) {
    const answer = await call(base(), 'GET', `/exp/livelesson/${id}`, undefined, address).catch(() => undefined);
    if (answer) {
      if (answer.status !== 200) throw new Error(`GET ${id} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      seen.push(String(answer.body.Status));
      if (answer.body.Status === LiveLessonStatus.READY) return seen;
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`${id} never READY: ${seen.slice(-5).join(', ')}`);
}

const platform = (overrides: Record<string, unknown>) =>
  startTestPlatform('postgres', {
    cluster: startKubeSim,
    services: { healthchecker: healthcheckerService, scheduler: schedulerService, api: apiService },
    overrides: { httpPort: 0, api: { host: '127.0.0.1', adminToken: ADMIN_TOKEN }, timeouts: TIMEOUTS, ...overrides },
  });

describe('a classroom behind one address, default limits (api, scheduler, healthchecker; PostgreSQL, kube-sim)', () => {
  let p: TestPlatform<Services, KubeSim>;
  beforeAll(async () => {
    p = await platform({ scheduler: SCHEDULER });
  });
  afterAll(() => p?.stop());

  it('30 learners from one address each get a session and a lab, and follow it to READY polling every second', { timeout: LONG }, async () => {
    const base = p.running('api')[0].url;
    const requests = await Promise.all(Array.from({ length: 30 }, () => learner(base, '127.0.8.1')));
    expect(requests.map((answer) => answer.status)).toEqual(Array(30).fill(200));
    const ids = requests.map((answer) => String(answer.body.id));
    expect(new Set(ids).size).toBe(30);
    await Promise.all(ids.map((id) => followToReady(() => base, id, '127.0.8.1', 1000)));
    for (const id of ids) expect(await p.data.liveLessons.get(id)).toMatchObject({ status: LiveLessonStatus.READY, error: false });
  });

  it('a 4th lesson in one session: the answer names the lab to end; with replaceOldest the oldest ends and the new one starts', { timeout: LONG }, async () => {
    const base = p.running('api')[0].url;
    const address = '127.0.8.2';
    const first = await learner(base, address, 'linux-basics');
    const { sessionId } = first;
    const ids = [String(first.body.id)];
    for (const slug of ['web-services', 'jupyter-intro'])
      ids.push(String((await call(base, 'POST', '/exp/livelesson', { lessonSlug: slug, sessionId }, address)).body.id));
    const refused = await call(base, 'POST', '/exp/livelesson', { lessonSlug: 'network-automation', sessionId }, address);
    expect(refused.status).toBe(429);
    const [detail] = refused.body.details as { reason: string; oldestLiveLessonId: string }[];
    expect(detail).toMatchObject({ reason: 'LIVE_LESSON_LIMIT', oldestLiveLessonId: ids[0] });
    const replaced = await call(base, 'POST', '/exp/livelesson', { lessonSlug: 'network-automation', sessionId, replaceOldest: true }, address);
    expect(replaced.status).toBe(200);
    await followToReady(() => base, String(replaced.body.id), address, 500);
    await expect.poll(() => p.data.liveLessons.find(ids[0]), { timeout: 60_000 }).toBeUndefined();
    const mine = await call(base, 'GET', `/exp/livesession/${sessionId}/livelessons`, undefined, address);
    expect((mine.body.LiveLessons as { ID: string }[]).map((lab) => lab.ID).sort()).toEqual([...ids.slice(1), String(replaced.body.id)].sort());
  });
});

describe('the waiting room with maxLiveLessons 5: two replicas of the api and the scheduler, restarted mid-queue (PostgreSQL)', () => {
  let p: TestPlatform<Services, KubeSim>;
  const CLIENTS = ['127.0.9.1', '127.0.9.2', '127.0.9.3', '127.0.9.4'];
  beforeAll(async () => {
    p = await platform({ scheduler: { ...SCHEDULER, maxLiveLessons: 5, maxQueued: 15 } });
    await p.start('scheduler');
    await p.start('api');
  });
  afterAll(() => p?.stop());

  const apis = (): string[] => p.running('api').map((service) => service.url);
  const waitingIds = async (): Promise<string[]> => (await p.data.admission.waiting()).map((ticket) => ticket.liveLessonId);

  it(
    'serves 20 requests from 4 addresses round-robin, each READY exactly once, places only going down, none lost across restarts; past maxQueued 429',
    { timeout: LONG },
    async () => {
      const namespacesBefore = p.sim.counters.requests().filter((r) => r.verb === 'create' && r.resource === 'namespaces' && r.code === 201).length;
      const clientOf = new Map<string, string>();
      const sessionOf = new Map<string, string>();
      for (const [i, address] of CLIENTS.flatMap((client) => Array<string>(5).fill(client)).entries()) {
        const answer = await learner(apis()[i % 2], address);
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        clientOf.set(String(answer.body.id), address);
        sessionOf.set(String(answer.body.id), answer.sessionId);
      }
      const ids = [...clientOf.keys()];
      // The line is full (5 running, 15 waiting): one more is refused with a time to come back.
      const full = await learner(apis()[0], '127.0.9.5');
      expect(full.status).toBe(429);
      expect(Number(full.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((full.body.details as { reason: string }[])[0].reason).toBe('QUEUE_FULL');

      // The first address's five fit at once; the other fifteen wait, round-robin across their addresses.
      const line = await waitingIds();
      expect(line).toHaveLength(15);
      expect(line.map((id) => clientOf.get(id))).toEqual(Array.from({ length: 15 }, (_, i) => CLIENTS[1 + (i % 3)]));

      // Learners poll their places (through either api) while labs end one at a time.
      const places = new Map<string, number[]>(line.map((id) => [id, []]));
      /** Polls until the returned stop is called (and has waited for the round under way). */
      const startPolling = (): (() => Promise<void>) => {
        let polling = true;
        const loop = (async () => {
          while (polling) {
            for (const [i, id] of [...places.keys()].entries()) {
              const bases = apis();
              const answer = await call(bases[i % bases.length], 'GET', `/exp/livelesson/${id}`, undefined, clientOf.get(id)).catch(() => undefined);
              if (answer?.status === 200) places.get(id)!.push(Number(answer.body.QueuePosition));
            }
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
        })();
        return async () => {
          polling = false;
          await loop;
        };
      };
      let stopPolling = startPolling();

      const admittedOrder: string[] = [];
      const ready = new Set<string>();
      const endOneReadyLab = async (): Promise<void> => {
        let readyNow: string[] = [];
        await expect
          .poll(
            async () => {
              readyNow = [];
              for (const id of ids) {
                const lab = ready.has(id) ? undefined : await p.data.liveLessons.find(id);
                if (lab?.error) throw new Error(`${id} failed: ${lab.failureReason}`);
                if (lab?.status === LiveLessonStatus.READY) readyNow.push(id);
              }
              return readyNow.length;
            },
            { timeout: 120_000, interval: 200 },
          )
          .toBeGreaterThan(0);
        const [id] = readyNow;
        ready.add(id);
        const before = await waitingIds();
        const ended = await call(apis()[ready.size % 2], 'DELETE', `/exp/livelesson/${id}?sessionId=${sessionOf.get(id)}`, undefined, clientOf.get(id));
        expect(ended.status).toBe(200);
        if (before.length === 0) return;
        // Its slot goes to the head of the line.
        await expect.poll(waitingIds, { timeout: 60_000, interval: 100 }).toEqual(before.slice(1));
        admittedOrder.push(before[0]);
      };

      /** Six labs end; then every api and scheduler replica goes and two of each come back, mid-queue; then the rest end. */
      const drainWithRestart = async (): Promise<void> => {
        for (let i = 0; i < 6; i++) await endOneReadyLab();
        // Everything restarts mid-queue: every api and scheduler replica goes, then two of each come back.
        const lineBefore = await waitingIds();
        expect(lineBefore).toHaveLength(9);
        // The pages pause meanwhile: a client that keeps reusing its keep-alive connection would hold an api's HTTP server open.
        await stopPolling();
        await p.stopService('api');
        await p.stopService('scheduler');
        for (const service of ['scheduler', 'scheduler', 'api', 'api'] as const) await p.start(service);
        stopPolling = startPolling();
        expect(await waitingIds()).toEqual(lineBefore);
        for (const [i, id] of lineBefore.entries())
          expect((await call(apis()[i % 2], 'GET', `/exp/livelesson/${id}`, undefined, clientOf.get(id))).body).toMatchObject({
            Status: 'INITIALIZED',
            QueuePosition: i + 1,
          });
        // Labs have ended: their lifetimes give the line an estimate.
        await expect
          .poll(
            async () => (await call(apis()[0], 'GET', `/exp/livelesson/${lineBefore[0]}`, undefined, clientOf.get(lineBefore[0]))).body.EstimatedWaitSeconds,
            { timeout: 30_000 },
          )
          .toEqual(expect.any(Number));
        while (ready.size < 20) await endOneReadyLab();
      };

      try {
        await drainWithRestart();
      } finally {
        await stopPolling();
      }

      expect(admittedOrder.map((id) => clientOf.get(id))).toEqual(line.map((id) => clientOf.get(id)));
      for (const [id, seen] of places) {
        expect(seen.length, id).toBeGreaterThan(0);
        const climbs = seen.filter((place, i) => i > 0 && place !== 0 && (seen[i - 1] === 0 || place > seen[i - 1]));
        expect(climbs, `${id}: ${seen.join(' ')}`).toEqual([]);
      }
      // Every one READY exactly once, none built twice.
      for (const id of ids)
        expect(
          p.eventsOf(id).filter((event) => event.status === LiveLessonStatus.READY && !event.deleted),
          id,
        ).toHaveLength(1);
      const namespaces =
        p.sim.counters.requests().filter((r) => r.verb === 'create' && r.resource === 'namespaces' && r.code === 201).length - namespacesBefore;
      expect(namespaces).toBe(20);
    },
  );
});
