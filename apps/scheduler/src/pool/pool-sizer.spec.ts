import type { LiveLesson } from '@antidote/data';
import { ReadinessRegistry } from '@antidote/runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { lessonHarness, type LessonHarness } from '../../test/lesson-harness.js';
import { PoolKeeper } from './pool-keeper.service.js';
import { DEFAULT_REFILL_SECONDS, PoolSizer } from './pool-sizer.js';

const LESSON = 'test-lesson';
const WINDOW = 600;

/** A member that took `seconds` from its row to READY. */
const builtIn = (seconds: number, lessonSlug = LESSON): LiveLesson =>
  ({
    lessonSlug,
    phaseTimes: { initializedAt: '2026-01-01T00:00:00.000Z', readyAt: new Date(Date.parse('2026-01-01T00:00:00.000Z') + seconds * 1000).toISOString() },
  }) as LiveLesson;

describe('PoolSizer and the keeper’s pass', () => {
  let h: LessonHarness;
  afterEach(() => h.close());

  const setUp = async (warmPools: Record<string, unknown>, scheduler: Record<string, unknown> = {}) => {
    h = await lessonHarness({ config: { warmPools, scheduler: { poolDemandWindowSeconds: WINDOW, ...scheduler } } });
    return new PoolSizer(h.data, h.config);
  };
  const misses = async (count: number, slug = LESSON) => {
    for (let i = 0; i < count; i++) await h.data.poolSizing.recordDemand(slug, i % 2 ? 'hit' : 'miss');
  };

  it('an operator’s size wins over the config, for a configured pool or one the config lacks; the maxAge too when given', async () => {
    const sizer = await setUp({ [LESSON]: { size: 2, maxAge: 600 } });
    expect(await sizer.targets([], new Date())).toEqual({ [LESSON]: { size: 2, maxAge: 600 } });
    await h.data.poolSizing.setOverride(LESSON, 5);
    await h.data.poolSizing.setOverride('other-lesson', 1, 60);
    expect(await sizer.targets([], new Date())).toEqual({ [LESSON]: { size: 5, maxAge: 600 }, 'other-lesson': { size: 1, maxAge: 60 } });
    await h.data.poolSizing.clearOverride(LESSON);
    expect((await sizer.targets([], new Date()))[LESSON]).toEqual({ size: 2, maxAge: 600 });
  });

  it('sizes an adaptive pool from the demand in the window and the time members took to build', async () => {
    const sizer = await setUp({ [LESSON]: { adaptive: true, min: 1, max: 6, maxAge: 0 } });
    const now = new Date();
    expect((await sizer.targets([], now))[LESSON]).toEqual({ size: 1, maxAge: 0 });
    await misses(20);
    // No build time seen yet: 20 requests / 600 s × the default refill time.
    expect((await sizer.targets([], now))[LESSON].size).toBe(Math.ceil((20 / WINDOW) * DEFAULT_REFILL_SECONDS));
    // Members that took 90 s each (the median of 30, 90, 120): 20 / 600 × 90 = 3.
    expect((await sizer.targets([builtIn(30), builtIn(120), builtIn(90)], now))[LESSON].size).toBe(3);
    // Remembered once the pool has no READY member left to measure.
    expect((await sizer.targets([], now))[LESSON].size).toBe(3);
    // Demand older than the window no longer counts (and is forgotten): back to min.
    expect((await sizer.targets([], new Date(now.getTime() + 2 * WINDOW * 1000)))[LESSON].size).toBe(1);
    expect(await h.data.poolSizing.demandSince(new Date(0))).toEqual(new Map());
  });

  it('keeps adaptive pools within scheduler.poolBudget, after the fixed pools', async () => {
    const sizer = await setUp({ [LESSON]: { adaptive: true, min: 0, max: 50, maxAge: 0 }, fixed: { size: 3, maxAge: 0 } }, { poolBudget: 5 });
    await misses(400);
    expect(await sizer.targets([builtIn(60)], new Date())).toEqual({ [LESSON]: { size: 2, maxAge: 0 }, fixed: { size: 3, maxAge: 0 } });
  });

  it('the pass builds to an operator’s size and drains a pool resized to 0', async () => {
    await setUp({ [LESSON]: { size: 1, maxAge: 600 } });
    const submitted: string[] = [];
    const keeper = new PoolKeeper(
      h.data,
      { submit: (kind: string, id: string) => (submitted.push(`${kind} ${id}`), { queued: true }) as never },
      h.metrics,
      new ReadinessRegistry(),
      h.config,
    );
    await h.data.poolSizing.setOverride(LESSON, 3);
    expect((await keeper.pass()).create).toEqual([{ lessonSlug: LESSON, count: 3 }]);
    await h.data.poolSizing.setOverride(LESSON, 0);
    const drained = await keeper.pass();
    expect([drained.create, drained.retire.map((r) => r.reason)]).toEqual([[], ['unconfigured', 'unconfigured', 'unconfigured']]);
    expect(submitted.filter((s) => s.startsWith('delete'))).toHaveLength(3);
  });
});
