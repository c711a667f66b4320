import type { DataSource } from 'typeorm';
import type { PhaseTimes } from '@antidote/contracts';
import { LessonStartEntity } from '../entities/index.js';
import { selectEntities, sqlRows, toColumns } from '../sql.js';

/** One start of a live lesson that reached READY: how long each part took. */
export interface LessonStart {
  liveLessonId: string;
  lessonSlug: string;
  readyAt: Date;
  /** Row written (INITIALIZED) → objects created (BOOTING). */
  provisionMs: number;
  /** Every endpoint up (CONFIGURATION) → READY: configuration jobs and the lesson's readyDelay. */
  configureMs: number;
  /** Image → ms from BOOTING until its slowest endpoint of this lesson was up (pod start and device boot). */
  bootMs: Record<string, number>;
}

/** How many starts are kept: the estimates read the recent ones only. */
export const KEPT_STARTS = 2000;
/** One prune per this many records (an indexed DELETE; the table stays near KEPT_STARTS rows). */
const PRUNE_EVERY = 50;

const ms = (from: string | undefined, to: string | undefined): number | undefined => (from && to ? Date.parse(to) - Date.parse(from) : undefined);

/**
 * The time each part of a start took, from its phase times and its endpoints' up times; undefined when a
 * part was not seen (a start resumed from a later phase, an endpoint without an up time).
 */
export function startOf(
  liveLessonId: string,
  lessonSlug: string,
  phaseTimes: PhaseTimes,
  endpoints: readonly { image: string; upAt?: Date | undefined }[],
): LessonStart | undefined {
  const provisionMs = ms(phaseTimes.initializedAt, phaseTimes.bootingAt);
  const configureMs = ms(phaseTimes.configurationAt, phaseTimes.readyAt);
  if (provisionMs === undefined || configureMs === undefined || !phaseTimes.bootingAt || !phaseTimes.readyAt) return undefined;
  const bootingAt = Date.parse(phaseTimes.bootingAt);
  const bootMs: Record<string, number> = {};
  for (const { image, upAt } of endpoints) {
    if (!upAt) return undefined;
    bootMs[image] = Math.max(bootMs[image] ?? 0, upAt.getTime() - bootingAt);
  }
  return { liveLessonId, lessonSlug, readyAt: new Date(phaseTimes.readyAt), provisionMs, configureMs, bootMs };
}

/**
 * Recent starts that reached READY, kept beyond their live lessons (the last KEPT_STARTS), from which the
 * scheduler estimates when a new start will be READY.
 */
export class LessonStartRepository {
  private recorded = 0;

  constructor(private readonly dataSource: DataSource) {}

  /**
   * Records the start of a live lesson that just became READY, from its phase times and its endpoints' up
   * times (as the READY write returned them), in one statement. Undefined when a part of it was not seen
   * (a phase, an endpoint's up time) or it was recorded before.
   */
  async record(
    liveLessonId: string,
    lessonSlug: string,
    phaseTimes: PhaseTimes,
    endpoints: readonly { image: string; upAt?: Date | undefined }[],
  ): Promise<LessonStart | undefined> {
    const start = startOf(liveLessonId, lessonSlug, phaseTimes, endpoints);
    if (!start) return undefined;
    const columns = toColumns(this.dataSource, LessonStartEntity, start);
    const [row] = await sqlRows(
      this.dataSource,
      `INSERT INTO lesson_starts (${Object.keys(columns).join(', ')}) VALUES (${Object.keys(columns)
        .map((column) => `:${column}`)
        .join(', ')}) ON CONFLICT (live_lesson_id) DO NOTHING RETURNING live_lesson_id`,
      columns,
    );
    if (!row) return undefined;
    if (++this.recorded % PRUNE_EVERY === 0) await this.prune(KEPT_STARTS);
    return start;
  }

  /** The `limit` most recent starts, newest first. */
  async recent(limit: number): Promise<LessonStart[]> {
    return selectEntities(this.dataSource, LessonStartEntity, '1 = 1', {}, `ready_at DESC LIMIT ${Math.max(1, Math.floor(limit))}`);
  }

  /** Forgets all but the `keep` most recent starts; returns how many went. */
  async prune(keep: number): Promise<number> {
    const rows = await sqlRows<{ live_lesson_id: string }>(
      this.dataSource,
      'DELETE FROM lesson_starts WHERE ready_at <= (SELECT ready_at FROM lesson_starts ORDER BY ready_at DESC LIMIT 1 OFFSET :keep) RETURNING live_lesson_id',
      { keep },
    );
    return rows.length;
  }
}
