import { RequestSubjects, type ReadinessCheck } from '@antidote/contracts';
import type { DataManager } from '@antidote/data';
import type { BusClient } from '@antidote/messaging';
import type { RunningService } from '@antidote/runtime';
import { makeLiveEndpoint, makeNewLiveLesson } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProbeServers } from '../../test/probe-servers.js';
import { startHealthchecker, type HealthcheckerFixture } from '../../test/healthchecker-fixture.js';
import { readinessMatches } from './safe-match.js';

/**
 * A readiness pattern that backtracks for longer than the universe has existed, in a live lesson's row (a
 * curriculum imported before validation refused back-references): while the healthchecker matches it, it
 * answers /healthz and checks another lab to READY, every answer while that match provably still runs.
 */
describe('a catastrophically backtracking readiness pattern in the healthchecker', () => {
  const servers = new ProbeServers();
  let fixture: HealthcheckerFixture;
  let service: RunningService;
  let bus: BusClient;
  let data: DataManager;

  /** A lesson whose one endpoint sends `banner` on connecting and declares a tcp banner check `match`. */
  const lessonWith = async (id: string, banner: string, match: string): Promise<string> => {
    const port = await servers.bannerLine(() => banner);
    const readiness: ReadinessCheck = { type: 'tcp', match };
    await data.liveLessons.create(
      makeNewLiveLesson({
        id,
        sessionId: `s${id}`,
        endpoints: [makeLiveEndpoint({ name: 'r1', host: '127.0.0.1', ports: [port], presentations: [], readiness })],
      }),
    );
    return id;
  };
  const matchesRunning = async (): Promise<number> =>
    Number(/^antidote_readiness_matches_running\{[^}]*\} (\d+)$/m.exec(await (await fetch(`${service.url}/metrics`)).text())?.[1]);

  beforeAll(async () => {
    // The runaway match keeps its thread for the whole test (its time limit is not what is tested here).
    fixture = await startHealthchecker({ probeRanges: ['127.0.0.0/8'], readinessMatchTimeoutMs: 3_600_000 }, 60_000);
    ({ service, bus, data } = fixture);
  });

  afterAll(async () => {
    await readinessMatches.close();
    await fixture?.stop();
    await servers.closeAll();
  });

  it('answers /healthz and brings another lab to READY while the match runs', async () => {
    const hostile = await lessonWith('hostile001', `${'a'.repeat(64)}!`, '^(a+)+\\1$');
    const other = await lessonWith('healthy001', 'SSH-2.0-OpenSSH_9.2', '^SSH-2\\.0-');
    void bus.request(RequestSubjects.healthCheck, { liveLessonId: hostile }).catch(() => undefined);
    await expect.poll(matchesRunning, { timeout: 60_000 }).toBe(1);

    // One at a time: a /healthz answer counts when the match is still running after it.
    const wanted = 50;
    let answeredDuringMatch = 0;
    while (answeredDuringMatch < wanted) {
      expect((await fetch(`${service.url}/healthz`, { signal: AbortSignal.timeout(60_000) })).status).toBe(200);
      if ((await matchesRunning()) === 0) break;
      answeredDuringMatch++;
    }
    expect(answeredDuringMatch).toBe(wanted);

    const reply = await bus.request(RequestSubjects.healthCheck, { liveLessonId: other });
    expect(reply.endpoints[0]).toMatchObject({ reachable: true, readiness: { ready: true, detail: 'banner matched /^SSH-2\\.0-/' } });
    expect(await matchesRunning()).toBe(1);
  });
});
