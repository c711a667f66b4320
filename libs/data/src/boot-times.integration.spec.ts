import { DATABASE_KINDS, makeLiveEndpoint, makeNewLiveLesson, testDatabase, type TestDatabase } from '@antidote/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEPT_STARTS, liveLessonStatusOf } from './index.js';

const endpoints = [
  makeLiveEndpoint({ name: 'vqfx1', image: 'vqfx', position: 0 }),
  makeLiveEndpoint({ name: 'vqfx2', image: 'vqfx', position: 1 }),
  makeLiveEndpoint({ name: 'linux1', image: 'utility', position: 2 }),
];
const at = (seconds: number): Date => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));

describe.each(DATABASE_KINDS)('boot times on %s', (kind) => {
  let db: TestDatabase;
  let clock = at(0);
  beforeAll(async () => {
    db = await testDatabase(kind, () => clock);
  });
  afterAll(() => db?.close());

  it('records each endpoint up once, and counts the endpoints up into a health that never decreases', async () => {
    const lessons = db.data.liveLessons;
    await lessons.create(makeNewLiveLesson({ id: 'bt-health', sessionId: 'bt-health', endpoints }));
    expect(await lessons.recordEndpointUp('bt-health', 'linux1', at(2))).toEqual({ healthy: 1, total: 3 });
    expect(await lessons.recordEndpointUp('bt-health', 'linux1', at(9))).toEqual({ healthy: 1, total: 3 });
    expect(await lessons.recordEndpointUp('bt-health', 'vqfx1', at(30))).toEqual({ healthy: 2, total: 3 });
    const read = await lessons.get('bt-health');
    expect(read.endpoints.map((endpoint) => [endpoint.name, endpoint.upAt?.getTime()])).toEqual([
      ['vqfx1', at(30).getTime()],
      ['vqfx2', undefined],
      ['linux1', at(2).getTime()],
    ]);
    // A count written higher by an older writer is never lowered by a later record.
    await lessons.updateTests('bt-health', 3, 3);
    expect(await lessons.recordEndpointUp('bt-health', 'vqfx2', at(31))).toEqual({ healthy: 3, total: 3 });
    await expect(lessons.recordEndpointUp('nope', 'vqfx1')).rejects.toThrow("Livelesson nope doesn't exist; cannot update");
    // An endpoint the lesson does not have changes nothing.
    expect(await lessons.recordEndpointUp('bt-health', 'no-such-endpoint', at(40))).toEqual({ healthy: 3, total: 3 });
    expect((await lessons.get('bt-health')).endpoints.map((endpoint) => endpoint.name)).toEqual(['vqfx1', 'vqfx2', 'linux1']);
  });

  it('loses no up time to concurrent records of one lesson (each merged into the row by the database)', async () => {
    const lessons = db.data.liveLessons;
    await lessons.create(makeNewLiveLesson({ id: 'bt-race', sessionId: 'bt-race', endpoints }));
    const counts = await Promise.all(endpoints.map((endpoint, i) => lessons.recordEndpointUp('bt-race', endpoint.name, at(10 + i))));
    expect(counts.map((count) => count.healthy).sort()).toEqual([1, 2, 3]);
    const read = await lessons.get('bt-race');
    expect(read.healthyTests).toBe(3);
    expect(read.endpoints.map((endpoint) => endpoint.upAt)).toEqual([at(10), at(11), at(12)]);
  });

  it('writes the expected READY time with a status, and status events carry it', async () => {
    const lessons = db.data.liveLessons;
    await lessons.create(makeNewLiveLesson({ id: 'bt-estimate', sessionId: 'bt-estimate', endpoints }));
    expect((await lessons.findState('bt-estimate'))?.estimatedReadyAt).toBeUndefined();
    const written = await lessons.updateStatus('bt-estimate', 'BOOTING', { estimatedReadyAt: at(95) });
    expect(written.estimatedReadyAt).toEqual(at(95));
    expect(liveLessonStatusOf(written)).toMatchObject({ status: 'BOOTING', estimatedReadyAt: at(95).toISOString() });
    // A status written without one keeps it.
    await lessons.updateStatus('bt-estimate', 'CONFIGURATION');
    expect((await lessons.get('bt-estimate')).estimatedReadyAt).toEqual(at(95));
  });

  it('keeps the starts that reached READY, each image at its slowest endpoint, newest first', async () => {
    const lessons = db.data.liveLessons;
    await lessons.create(makeNewLiveLesson({ id: 'bt-start', sessionId: 'bt-start', lessonSlug: 'network-automation', endpoints }));
    clock = at(1);
    await lessons.updateStatus('bt-start', 'BOOTING');
    for (const [name, second] of [
      ['linux1', 4],
      ['vqfx1', 30],
      ['vqfx2', 33],
    ] as const)
      await lessons.recordEndpointUp('bt-start', name, at(second));
    clock = at(34);
    await lessons.updateStatus('bt-start', 'CONFIGURATION');
    clock = at(40);
    const ready = await lessons.updateStatus('bt-start', 'READY');
    // The READY write answers the up times the healthchecker recorded: the start is recorded from them.
    expect(ready.endpointUpAt).toEqual(
      new Map([
        ['linux1', at(4)],
        ['vqfx1', at(30)],
        ['vqfx2', at(33)],
      ]),
    );
    const upTimes = endpoints.map(({ name, image }) => ({ image, upAt: ready.endpointUpAt.get(name) }));
    expect(await db.data.starts.record('bt-start', 'network-automation', ready.phaseTimes, upTimes)).toMatchObject({ liveLessonId: 'bt-start' });
    // Recorded once: the same start again changes nothing.
    expect(await db.data.starts.record('bt-start', 'network-automation', ready.phaseTimes, upTimes)).toBeUndefined();
    const [start, ...rest] = await db.data.starts.recent(10);
    expect(rest).toEqual([]);
    expect(start).toEqual({
      liveLessonId: 'bt-start',
      lessonSlug: 'network-automation',
      readyAt: at(40),
      provisionMs: 1000,
      configureMs: 6000,
      bootMs: { vqfx: 32_000, utility: 3000 },
    });
  });

  it('records nothing of a start it did not see whole, and keeps only the most recent starts', async () => {
    expect(await db.data.starts.record('bt-health', 'x', { initializedAt: at(0).toISOString(), readyAt: at(9).toISOString() }, [])).toBeUndefined();
    // Every phase seen, but an endpoint never recorded up (vqfx2 of bt-estimate).
    const phases = { initializedAt: at(0).toISOString(), bootingAt: at(1).toISOString(), configurationAt: at(5).toISOString(), readyAt: at(9).toISOString() };
    const upTimes = (await db.data.liveLessons.get('bt-estimate')).endpoints;
    expect(upTimes.filter((endpoint) => !endpoint.upAt).map((endpoint) => endpoint.name)).toEqual(['vqfx1', 'vqfx2', 'linux1']);
    expect(await db.data.starts.record('bt-estimate', 'x', phases, upTimes)).toBeUndefined();
    expect(await db.data.starts.prune(KEPT_STARTS)).toBe(0);
    expect(await db.data.starts.prune(1)).toBe(0);
    expect(await db.data.starts.prune(0)).toBe(1);
    expect(await db.data.starts.recent(5)).toEqual([]);
  });
});
