/** The `/exp` API of this origin. Errors carry the API's message. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function call(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed = {};
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    parsed = { message: text };
  }
  if (!response.ok) throw new ApiError(response.status, parsed.message || `${method} ${path} answered ${response.status}`);
  return parsed;
}

export const api = {
  lessons: () => call('GET', '/exp/lesson').then((body) => body.lessons ?? []),
  lesson: (slug) => call('GET', `/exp/lesson/${encodeURIComponent(slug)}`),
  collections: () => call('GET', '/exp/collection').then((body) => body.collections ?? []),
  session: (id) => call('GET', `/exp/livesession/${encodeURIComponent(id)}`),
  newSession: () => call('POST', '/exp/livesession', {}),
  requestLab: (lessonSlug, sessionId, lessonStage) => call('POST', '/exp/livelesson', { lessonSlug, sessionId, lessonStage }),
  liveLesson: (id) => call('GET', `/exp/livelesson/${encodeURIComponent(id)}`),
  endLab: (id, sessionId) => call('DELETE', `/exp/livelesson/${encodeURIComponent(id)}?sessionId=${encodeURIComponent(sessionId)}`),
  webConfig: () => call('GET', '/web/config.json'),
};
