import { request } from 'node:http';
import { LiveLessonStatus } from '@antidote/contracts';
import { healthcheckerService } from '@antidote/healthchecker';
import { schedulerService } from '@antidote/scheduler';
import { startKubeSim, type KubeSim } from '@antidote/kube-sim';
import { startTestPlatform, type TestPlatform } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiService } from './api.definition.js';

type Services = 'healthchecker' | 'scheduler' | 'api';
const LABS = 12;
const OUTAGE_MS = 5000;

interface Follower {
  id: string;
  statuses: string[];
  /** When the stream's last event arrived, and whether the api closed the stream (at a final state). */
  lastAt: number;
  ended: boolean;
  close(): void;
}

/** Follows a live lesson's event stream as the web page does (one learner's address per stream). */
function follow(api: string, id: string, ip: string): Follower {
  const follower: Follower = { id, statuses: [], lastAt: 0, ended: false, close: () => outgoing.destroy() };
  const outgoing = request(`${api}/exp/livelesson/${id}/events`, { headers: { 'x-forwarded-for': ip } }, (response) => {
    let buffer = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
        const data = /^data: (.*)$/m.exec(buffer.slice(0, end))?.[1];
        buffer = buffer.slice(end + 2);
        if (!data) continue;
        const status = JSON.parse(data) as { status?: string };
        if (status.status) follower.statuses.push(status.status);
        follower.lastAt = Date.now();
      }
    });
    response.on('end', () => (follower.ended = true));
  });
  outgoing.on('error', () => undefined);
  outgoing.end();
  return follower;
}

/**
 * The check that found streams silent for good: 12 learners follow their labs' event streams while
 * nats-server is down for at least 5 s around the moment their labs turn READY (the configuration jobs
 * finish while the bus is away, so every READY event of that moment is lost). Every stream must end READY
 * once NATS is back — from the api's re-read of its open streams on reconnect and the scheduler's
 * re-publication of what it could not send; the periodic re-read is set far out so it cannot be what helps.
 */
describe('event streams across a NATS outage around READY (api, scheduler, healthchecker; nats-server, PostgreSQL, kube-sim)', () => {
  let p: TestPlatform<Services, KubeSim>;
  const followers: Follower[] = [];

  beforeAll(async () => {
    p = await startTestPlatform('postgres', {
      cluster: startKubeSim,
      services: { healthchecker: healthcheckerService, scheduler: schedulerService, api: apiService },
      // Configuration jobs take 10 s: long after every lab has passed its reachability wait (which needs NATS).
      faults: { podStartDelayMs: 200, jobRunDelayMs: 10_000 },
      overrides: {
        httpPort: 0,
        liveSessionLimit: 0,
        api: { host: '127.0.0.1', rateLimitPerMinute: 0, eventResyncSeconds: 600 },
        timeouts: { podRunningSeconds: 120, reachabilitySeconds: 120, configJobSeconds: 120, namespaceDeleteSeconds: 60 },
      },
    });
  });
  afterAll(async () => {
    for (const follower of followers) follower.close();
    await p?.stop();
  });

  it(`${LABS} streams whose labs turn READY while NATS is down all end READY once it is back`, async () => {
    const api = p.running('api')[0].url;
    const post = async (path: string, body: unknown, ip: string) => {
      const response = await fetch(`${api}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(200);
      return (await response.json()) as Record<string, string>;
    };
    for (let i = 0; i < LABS; i++) {
      const ip = `198.51.100.${100 + i}`;
      const session = await post('/exp/livesession', {}, ip);
      const { id } = await post('/exp/livelesson', { lessonSlug: 'network-automation', sessionId: session.ID, lessonStage: 0 }, ip);
      followers.push(follow(api, id, ip));
    }
    const statuses = async () => {
      const rows = await p.data.liveLessons.list();
      return followers.map((follower) => rows.find((row) => row.id === follower.id));
    };
    // Every lab past its reachability wait, some still configuring: the moment to take the bus away.
    await expect
      .poll(
        async () => {
          const rows = await statuses();
          return (
            rows.every((row) => row?.status === LiveLessonStatus.CONFIGURATION || row?.status === LiveLessonStatus.READY) &&
            rows.some((row) => row?.status === LiveLessonStatus.CONFIGURATION)
          );
        },
        { timeout: 240_000, interval: 100 },
      )
      .toBe(true);
    const configuringAtOutage = (await statuses()).filter((row) => row?.status === LiveLessonStatus.CONFIGURATION).length;
    let back = 0;
    await p.nats.restart(async () => {
      const down = Date.now();
      await expect
        .poll(async () => (await statuses()).every((row) => row?.status === LiveLessonStatus.READY && !row.error), { timeout: 120_000, interval: 200 })
        .toBe(true);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, OUTAGE_MS - (Date.now() - down))));
    });
    back = Date.now();
    await expect
      .poll(() => followers.filter((follower) => !follower.ended).map((follower) => `${follower.id}: ${follower.statuses.join(' → ')}`), {
        timeout: 90_000,
        interval: 100,
      })
      .toEqual([]);
    const converged = followers.map((follower) => Math.max(0, follower.lastAt - back));
    console.log(
      `event streams after a NATS outage: ${LABS} labs, ${configuringAtOutage} turned READY while NATS was down; every stream ended READY, the last ${Math.max(...converged)} ms after NATS was back`,
    );
    expect(followers.map((follower) => follower.statuses.at(-1))).toEqual(Array(LABS).fill(LiveLessonStatus.READY));
    expect(configuringAtOutage).toBeGreaterThan(0);
    // The target is 5 s (printed above); the margin is for a loaded CI machine. What is asserted is the
    // mechanism: the periodic re-read is 600 s away, so only the reconnect paths end the streams this soon.
    expect(Math.max(...converged)).toBeLessThan(60_000);
  }, 600_000);
});
