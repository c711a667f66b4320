/** One request waiting in line, as `GET /exp/admin/queue` reports it (`antictl queue`). */
export interface QueuedLab {
  position: number;
  liveLessonId: string;
  lessonSlug: string;
  /** The client address it came from. */
  client: string;
  waitingSeconds: number;
  /** Until it starts being built; absent when it cannot be estimated. */
  estimatedWaitSeconds?: number;
  /** Since its learner last asked about it (a poll, an event stream, a keep-alive). */
  lastSeenSecondsAgo: number;
}

/** The waiting room (`GET /exp/admin/queue`, `antictl queue`). */
export interface QueueSummary {
  /** `scheduler.maxLiveLessons` (0 = unlimited) and the labs holding capacity now. */
  capacity: { max: number; holding: number };
  /** `scheduler.maxQueued`. */
  maxQueued: number;
  waiting: number;
  /** Over the last hour: waits of the requests that queued (seconds), and requests dropped unseen. */
  lastHour: { admittedFromQueue: number; waitP50Seconds?: number; waitP95Seconds?: number; abandoned: number };
  line: QueuedLab[];
}
