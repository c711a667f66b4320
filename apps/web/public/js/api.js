/**
 * The `/exp` API of this origin. Errors carry the API's message, its `details[0]` (`detail`: a refusal's
 * reason and learner's words) and `Retry-After` in seconds; an api that cannot be reached is an `Unreachable`.
 */
export class ApiError extends Error {
  constructor(status, message, detail, retryAfterSeconds) {
    super(message);
    this.status = status;
    this.detail = detail;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** No answer (network down, the api stopped or hung past `TIMEOUT_MS`, a proxy without its upstream). */
export class Unreachable extends Error {}

const TIMEOUT_MS = 15_000;
const GATEWAY = new Set([502, 504]);

async function call(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new Unreachable(error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${TIMEOUT_MS / 1000} s` : 'no connection');
  }
  if (GATEWAY.has(response.status)) throw new Unreachable(`the platform answered ${response.status}`);
  const text = await response.text().catch(() => '');
  let parsed = {};
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    parsed = { message: text };
  }
  if (!response.ok) {
    const retryAfter = Number.parseInt(response.headers.get('retry-after') ?? '', 10);
    const detail = Array.isArray(parsed.details) && parsed.details[0] && typeof parsed.details[0] === 'object' ? parsed.details[0] : undefined;
    throw new ApiError(
      response.status,
      parsed.message || `${method} ${path} answered ${response.status}`,
      detail,
      Number.isFinite(retryAfter) ? retryAfter : detail?.retryAfterSeconds,
    );
  }
  return parsed;
}

const id = (value) => encodeURIComponent(value);

export const api = {
  lessons: () => call('GET', '/exp/lesson').then((body) => body.lessons ?? []),
  lesson: (slug) => call('GET', `/exp/lesson/${id(slug)}`),
  collections: () => call('GET', '/exp/collection').then((body) => body.collections ?? []),
  session: (sessionId) => call('GET', `/exp/livesession/${id(sessionId)}`),
  /** "My labs": the session's labs, most recently used first. */
  sessionLabs: (sessionId) => call('GET', `/exp/livesession/${id(sessionId)}/livelessons`).then((body) => body.LiveLessons ?? []),
  newSession: () => call('POST', '/exp/livesession', {}),
  /** `replaceOldest`: past the session's limit of labs, end the one used least recently to make room. */
  requestLab: (lessonSlug, sessionId, lessonStage, replaceOldest = false) =>
    call('POST', '/exp/livelesson', { lessonSlug, sessionId, lessonStage, ...(replaceOldest ? { replaceOldest } : {}) }),
  liveLesson: (labId) => call('GET', `/exp/livelesson/${id(labId)}`),
  /** Renews an existing lab and answers its state; 404 (ApiError) once it is gone. Never creates one. */
  renew: (labId, sessionId) => call('POST', `/exp/livelesson/${id(labId)}/keepalive`, { sessionId }),
  endLab: (labId, sessionId) => call('DELETE', `/exp/livelesson/${id(labId)}?sessionId=${id(sessionId)}`),
  webConfig: () => call('GET', '/web/config.json'),
  /** The lab's events for its whole life (stage changes, failure, deletion), with a heartbeat. */
  eventsUrl: (labId) => `/exp/livelesson/${id(labId)}/events?follow=true`,
};

/** 1 s, 2 s, 4 s … up to 30 s: how long to wait before the `attempt`-th retry. */
export const backOffMs = (attempt) => Math.min(30_000, 1000 * 2 ** Math.max(0, attempt));

/** Runs `task` until it answers, waiting `backOffMs` after each Unreachable (told to `onWait(ms, error)`). */
export async function untilReachable(task, onWait) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await task();
    } catch (error) {
      if (!(error instanceof Unreachable)) throw error;
      const wait = backOffMs(attempt);
      onWait(wait, error);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
