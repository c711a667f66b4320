import { GatewayError, GrpcCode } from '../http/gateway.error.js';

/** Why a request was not taken now; a front-end can branch on it (the gateway `code` is 8 for every one). */
export const AdmissionReasons = {
  /** The session holds `liveLessonLimit` labs: end one (`oldestLiveLessonId`), or ask again with `replaceOldest: true`. */
  liveLessonLimit: 'LIVE_LESSON_LIMIT',
  /** `liveSessionLimit` sessions held by this address (off by default). */
  liveSessionLimit: 'LIVE_SESSION_LIMIT',
  newSessionRate: 'NEW_SESSION_RATE',
  newLabRate: 'NEW_LAB_RATE',
  /** Every lab is in use and the waiting room holds `scheduler.maxQueued`. */
  queueFull: 'QUEUE_FULL',
} as const;
export type AdmissionReason = (typeof AdmissionReasons)[keyof typeof AdmissionReasons];

/** The detail beside the gateway error: what happened and what to do, in the learner's words, with the facts a page needs. */
export interface AdmissionDetail {
  reason: AdmissionReason;
  learnerMessage: string;
  retryAfterSeconds?: number;
  limit?: number;
  /** The lab to end to make room (`LIVE_LESSON_LIMIT`): the one the learner used least recently. */
  oldestLiveLessonId?: string;
  oldestLessonSlug?: string;
}

/**
 * 429 in the gateway shape. `error`/`message` keep the original's text where antidote-web shows one
 * (its lab page shows the message); `details` carries ours.
 */
export class AdmissionError extends GatewayError {
  constructor(
    message: string,
    readonly detail: AdmissionDetail,
  ) {
    super(GrpcCode.ResourceExhausted, message, undefined, detail.retryAfterSeconds ? { 'Retry-After': String(detail.retryAfterSeconds) } : {});
  }

  override body(): ReturnType<GatewayError['body']> {
    return { ...super.body(), details: [this.detail] };
  }
}

const inAbout = (seconds: number): string => (seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`);

export function liveLessonLimit(limit: number, oldest: { id: string; lessonSlug: string; lessonName: string }): AdmissionError {
  return new AdmissionError('This session address has exceeded the maximum number of liveLessons', {
    reason: AdmissionReasons.liveLessonLimit,
    learnerMessage: `You already have ${limit} labs open, the most you can have at once. End one to start this one: "${oldest.lessonName}" is the one you used least recently.`,
    limit,
    oldestLiveLessonId: oldest.id,
    oldestLessonSlug: oldest.lessonSlug,
  });
}

export function liveSessionLimit(limit: number): AdmissionError {
  return new AdmissionError('This IP address has exceeded the maximum number of liveSessions', {
    reason: AdmissionReasons.liveSessionLimit,
    learnerMessage: `Your network already holds ${limit} sessions, the most this platform allows. Close other lab tabs, or try again once they have expired.`,
    limit,
  });
}

const RATES = {
  session: {
    reason: AdmissionReasons.newSessionRate,
    what: 'sessions',
    learner: 'Many people on your network have just started sessions. Please wait about %, then reload the page.',
  },
  lab: {
    reason: AdmissionReasons.newLabRate,
    what: 'labs',
    learner: 'Many labs have just been started from your network. Please wait about %, then start yours again.',
  },
} as const;

/** Past an address's token bucket of new sessions or labs. */
export function newRate(kind: keyof typeof RATES, count: number, perSeconds: number, retryAfterSeconds: number): AdmissionError {
  const rate = RATES[kind];
  return new AdmissionError(`Too many new ${rate.what} from this address (at most ${count} every ${perSeconds} s); try again in ${retryAfterSeconds} s`, {
    reason: rate.reason,
    learnerMessage: rate.learner.replace('%', inAbout(retryAfterSeconds)),
    retryAfterSeconds,
    limit: count,
  });
}

export function queueFull(maxQueued: number, retryAfterSeconds: number): AdmissionError {
  return new AdmissionError(`Antidote is at capacity and ${maxQueued} requests are waiting already; try again in ${retryAfterSeconds} s`, {
    reason: AdmissionReasons.queueFull,
    learnerMessage: `Every lab is in use and the waiting line is full. Please try again in about ${inAbout(retryAfterSeconds)}.`,
    retryAfterSeconds,
    limit: maxQueued,
  });
}
