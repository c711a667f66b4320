import { api, ApiError, untilReachable } from './api.js';

const KEY = 'antidote.sessionId';
const labKey = (slug) => `antidote.lab.${slug}`;

/** The learner's session, kept in this browser; a new one when there is none or the platform forgot it. */
export async function ensureSession() {
  const stored = localStorage.getItem(KEY);
  if (stored) {
    try {
      await api.session(stored);
      return stored;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 404) throw error;
    }
  }
  return renewSession();
}

export async function renewSession() {
  const session = await api.newSession();
  localStorage.setItem(KEY, session.ID);
  return session.ID;
}

/** This browser's session id, if it has one (nothing is created). */
export const storedSessionId = () => localStorage.getItem(KEY) ?? undefined;

/**
 * Requests the lab (or its stage change); an expired session is replaced once. `replaceOldest`: past the
 * session's limit, the lab used least recently is ended to make room.
 */
export async function requestLab(slug, stage, sessionId, replaceOldest = false) {
  try {
    return { sessionId, id: (await api.requestLab(slug, sessionId, stage, replaceOldest)).id };
  } catch (error) {
    if (!(error instanceof ApiError) || !/Invalid session ID/.test(error.message)) throw error;
    const fresh = await renewSession();
    return { sessionId: fresh, id: (await api.requestLab(slug, fresh, stage)).id };
  }
}

/** The id of this browser's lab of a lesson (every tab finds it; the lab page resumes it). */
export const storedLab = {
  get: (slug) => localStorage.getItem(labKey(slug)) ?? undefined,
  set: (slug, id) => localStorage.setItem(labKey(slug), id),
  forget: (slug, id) => localStorage.getItem(labKey(slug)) === id && localStorage.removeItem(labKey(slug)),
};

/**
 * This browser's running lab of the lesson (renewed: `running` is its state), or a new one requested at
 * `stage`. Waits out an api that cannot be reached (`waiting(ms)` is told); a refusal is thrown.
 */
export async function findOrRequestLab(slug, stage, sessionId, waiting) {
  const stored = storedLab.get(slug);
  const running = stored && (await untilReachable(() => api.renew(stored, sessionId), waiting).catch(() => undefined));
  if (running) return { id: stored, sessionId, running };
  const answer = await untilReachable(() => requestLab(slug, stage, sessionId), waiting);
  storedLab.set(slug, answer.id);
  return { id: answer.id, sessionId: answer.sessionId };
}
