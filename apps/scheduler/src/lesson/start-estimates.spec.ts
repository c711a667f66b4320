import { EventSubjects, LiveLessonStatus, type WaitReachableReply } from '@antidote/contracts';
import type { LessonStart } from '@antidote/data';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lessonHarness, type LessonHarness } from '../../test/lesson-harness.js';
import { expectedBootMs, expectedConfigureMs, UNKNOWN_BOOT_MS, UNKNOWN_CONFIGURE_MS } from './start-estimates.js';

const start = (lessonSlug: string, bootMs: Record<string, number>, configureMs: number): LessonStart => ({
  liveLessonId: `${lessonSlug}-${configureMs}`,
  lessonSlug,
  readyAt: new Date(0),
  provisionMs: 100,
  configureMs,
  bootMs,
});
const STARTS = [
  start('net', { vqfx: 30_000, utility: 2000 }, 6000),
  start('net', { vqfx: 34_000, utility: 2200 }, 6400),
  start('net', { vqfx: 31_000, utility: 1900 }, 6200),
  start('linux', { utility: 2100 }, 1000),
];

describe('expected start times', () => {
  it.each([
    { images: ['vqfx', 'vqfx', 'utility'], ms: 31_000, why: 'the slowest image, at the median of its recent boots' },
    { images: ['utility'], ms: 2050, why: 'the median of an even count is the mean of the middle two' },
    { images: ['ceos', 'utility'], ms: UNKNOWN_BOOT_MS, why: 'an image never seen: the default' },
  ])('boot of $images: $ms ms ($why)', ({ images, ms }) => expect(expectedBootMs(STARTS, images)).toBe(ms));

  it('an image never seen is expected as slow as the slowest seen when that is slower than the default', () => {
    expect(expectedBootMs([start('vmx', { vmx: 300_000 }, 5000)], ['ceos'])).toBe(300_000);
    expect(expectedBootMs([], ['vqfx'])).toBe(UNKNOWN_BOOT_MS);
  });

  it.each([
    { lessonSlug: 'net', ms: 6200, why: "the median of the lesson's own starts" },
    { lessonSlug: 'new', ms: 6100, why: "a lesson never started: the median of all lessons' starts" },
  ])('configuration of $lessonSlug: $ms ms ($why)', ({ lessonSlug, ms }) => expect(expectedConfigureMs(STARTS, { lessonSlug, readyDelayMs: 1000 })).toBe(ms));

  it('configuration without any start seen: its readyDelay and the default', () =>
    expect(expectedConfigureMs([], { lessonSlug: 'x', readyDelayMs: 1000 })).toBe(1000 + UNKNOWN_CONFIGURE_MS));
});

describe('a start carries when it is expected READY', () => {
  let h: LessonHarness;
  beforeEach(async () => {
    h = await lessonHarness();
  });
  afterEach(() => h.close());

  const allUp = (): WaitReachableReply => ({
    reachable: true,
    healthy: 2,
    total: 2,
    elapsedMs: 1,
    endpoints: ['linux1', 'linux2'].map((name) => ({ name, host: `${name}.svc`, reachable: true, latencyMs: 1, probes: [] })),
  });
  const create = async () => {
    const lesson = await h.newLiveLesson();
    await h.creates.run(await h.data.liveLessons.get(lesson.id), new AbortController().signal, () => undefined);
    return h.data.liveLessons.get(lesson.id);
  };
  const estimateOf = (id: string, status: LiveLessonStatus) =>
    h.bus.events(EventSubjects.liveLessonStatusChanged).find((event) => event.liveLessonId === id && event.status === status)?.estimatedReadyAt;

  it('from the defaults for the first start, then from the starts that reached READY before it', async () => {
    h.reachable(allUp);
    const first = await create();
    const firstBooting = Date.parse(first.phaseTimes.bootingAt!);
    expect(Date.parse(estimateOf(first.id, LiveLessonStatus.BOOTING)!)).toBeGreaterThanOrEqual(firstBooting + UNKNOWN_BOOT_MS + UNKNOWN_CONFIGURE_MS - 1000);
    const [recorded] = await h.data.starts.recent(1);
    expect(recorded).toMatchObject({ liveLessonId: first.id, bootMs: { utility: expect.any(Number) as number } });

    const second = await create();
    const bootingAt = Date.parse(second.phaseTimes.bootingAt!);
    const expected = recorded.bootMs.utility + recorded.configureMs;
    const estimate = Date.parse(estimateOf(second.id, LiveLessonStatus.BOOTING)!);
    expect(estimate).toBeLessThanOrEqual(bootingAt + expected);
    expect(estimate).toBeGreaterThanOrEqual(bootingAt + expected - 1000);
    // Entering CONFIGURATION it is the configuration's part alone; the row keeps the last estimate.
    expect(Date.parse(estimateOf(second.id, LiveLessonStatus.CONFIGURATION)!)).toBeLessThanOrEqual(
      Date.parse(second.phaseTimes.configurationAt!) + recorded.configureMs,
    );
    expect(second.estimatedReadyAt?.toISOString()).toBe(estimateOf(second.id, LiveLessonStatus.CONFIGURATION));
  });
});
