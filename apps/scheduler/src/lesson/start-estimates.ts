import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataManager, type LessonStart, type LiveLesson } from '@antidote/data';
import { reasonOf } from './lesson-failure.error.js';

/** How many recent starts the estimates are drawn from (newest first). */
const WINDOW = 500;
/** An image's (a lesson's) expected time is the median of its this many most recent starts. */
const SAMPLES = 9;
/** Starts read are reused this long before they are read again (to see other replicas' starts). */
const REFRESH_MS = 30_000;
/** An image never seen is expected to boot in this long at least (a learner rather waits less than told). */
export const UNKNOWN_BOOT_MS = 60_000;
/** With no start of any lesson seen, its configuration is expected to take its readyDelay and this. */
export const UNKNOWN_CONFIGURE_MS = 5000;

const median = (values: readonly number[]): number | undefined => {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** What an estimate needs to know of a lesson's start. */
export interface StartShape {
  lessonSlug: string;
  /** Its endpoints' images. */
  images: readonly string[];
  readyDelayMs: number;
}

/** ms from BOOTING until every endpoint is up: the slowest of its images, each at the median of its recent starts (an image never seen: UNKNOWN_BOOT_MS, or the slowest seen if slower). */
export function expectedBootMs(starts: readonly LessonStart[], images: readonly string[]): number {
  const byImage = new Map<string, number[]>();
  for (const start of starts) for (const [image, ms] of Object.entries(start.bootMs)) byImage.set(image, [...(byImage.get(image) ?? []), ms].slice(0, SAMPLES));
  const known = [...byImage.values()].map((samples) => median(samples)!);
  const unknown = Math.max(UNKNOWN_BOOT_MS, ...known);
  return Math.max(0, ...images.map((image) => median(byImage.get(image) ?? []) ?? unknown));
}

/** ms from every endpoint up (CONFIGURATION) until READY: the median of the lesson's recent starts, else of all lessons', else its readyDelay and a default. */
export function expectedConfigureMs(starts: readonly LessonStart[], lesson: Pick<StartShape, 'lessonSlug' | 'readyDelayMs'>): number {
  const own = starts.filter((start) => start.lessonSlug === lesson.lessonSlug).slice(0, SAMPLES);
  return (
    median(own.map((start) => start.configureMs)) ??
    median(starts.slice(0, SAMPLES).map((start) => start.configureMs)) ??
    lesson.readyDelayMs + UNKNOWN_CONFIGURE_MS
  );
}

/**
 * When a start will be READY, from the recent starts of the same images and lesson (kept by the
 * database beyond their live lessons, and read again every REFRESH_MS); and the record of each start
 * that reached READY. An estimate never fails a start: without the history it is the defaults.
 */
@Injectable()
export class StartEstimates {
  private readonly logger = new Logger('Estimates');
  private starts: LessonStart[] = [];
  private readAt = Number.NEGATIVE_INFINITY;
  private reading?: Promise<LessonStart[]>;

  constructor(@Inject(DataManager) private readonly data: DataManager) {}

  /** Expected READY of a start entering BOOTING now: its boot, then its configuration. */
  async whenBooting(lesson: StartShape, now = Date.now()): Promise<Date> {
    const starts = await this.recent();
    return new Date(now + expectedBootMs(starts, lesson.images) + expectedConfigureMs(starts, lesson));
  }

  /** Expected READY of a start entering CONFIGURATION now. */
  async whenConfiguring(lesson: StartShape, now = Date.now()): Promise<Date> {
    return new Date(now + expectedConfigureMs(await this.recent(), lesson));
  }

  /** Keeps the start of a live lesson that just became READY, as its READY write found it (its phase times, its endpoints' up times), for the next estimates (here at once). */
  async record(ready: Pick<LiveLesson, 'id' | 'lessonSlug' | 'phaseTimes' | 'endpoints'>): Promise<void> {
    try {
      const start = await this.data.starts.record(ready.id, ready.lessonSlug, ready.phaseTimes, ready.endpoints);
      if (start) this.starts = [start, ...this.starts].slice(0, WINDOW);
    } catch (error) {
      this.logger.warn(`could not record the start of ${ready.id}: ${reasonOf(error)}`);
    }
  }

  /** The recent starts, read again once REFRESH_MS old (one read at a time). */
  private recent(): Promise<LessonStart[]> {
    if (Date.now() - this.readAt < REFRESH_MS) return Promise.resolve(this.starts);
    this.reading ??= this.data.starts
      .recent(WINDOW)
      .then((starts) => {
        this.starts = starts;
        this.readAt = Date.now();
        return starts;
      })
      .catch((error: unknown) => {
        this.logger.warn(`could not read recent starts: ${reasonOf(error)}`);
        return this.starts;
      })
      .finally(() => (this.reading = undefined));
    return this.reading;
  }
}
