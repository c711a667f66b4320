import type { ExpResponse, GatewayErrorBody, expClient } from './exp-client.js';

type Client = ReturnType<typeof expClient>;

export interface BadRequest {
  name: string;
  /** Sends the request as a learner holding the valid session `session`. */
  send: (exp: Client, session: string) => Promise<ExpResponse<GatewayErrorBody>>;
  status: number;
  /** The gRPC code the original gateway put in `code`. */
  code: number;
  message: string | RegExp;
}

const lessonRequest = (exp: Client, body: unknown) => exp.post<GatewayErrorBody>('/exp/livelesson', body);

/** Requests the /exp API must answer 4xx (never 500) in the gateway error shape, with the original texts. */
export const badRequests: BadRequest[] = [
  {
    name: 'unknown lesson slug',
    send: (exp, sessionId) => lessonRequest(exp, { sessionId, lessonSlug: 'no-such-lesson', lessonStage: 0 }),
    status: 404,
    code: 5,
    message: "Couldn't find lesson slug 'no-such-lesson'",
  },
  {
    name: 'stage past the last one',
    send: (exp, sessionId) => lessonRequest(exp, { sessionId, lessonSlug: 'network-automation', lessonStage: 2 }),
    status: 400,
    code: 3,
    message: 'Invalid stage ID for this lesson',
  },
  {
    name: 'negative stage',
    send: (exp, sessionId) => lessonRequest(exp, { sessionId, lessonSlug: 'network-automation', lessonStage: -1 }),
    status: 400,
    code: 3,
    message: /lessonStage/,
  },
  {
    name: 'stage not a number',
    send: (exp, sessionId) => lessonRequest(exp, { sessionId, lessonSlug: 'network-automation', lessonStage: 'one' }),
    status: 400,
    code: 3,
    message: /lessonStage/,
  },
  {
    name: 'fractional stage',
    send: (exp, sessionId) => lessonRequest(exp, { sessionId, lessonSlug: 'network-automation', lessonStage: 0.5 }),
    status: 400,
    code: 3,
    message: /lessonStage/,
  },
  {
    name: 'unknown session',
    send: (exp) => lessonRequest(exp, { sessionId: 'nosuchsession', lessonSlug: 'network-automation', lessonStage: 0 }),
    status: 400,
    code: 3,
    message: 'Invalid session ID nosuchsession',
  },
  { name: 'malformed JSON body', send: (exp) => lessonRequest(exp, '{"lessonSlug": "network-'), status: 400, code: 3, message: /malformed/ },
  { name: 'a JSON array for a body', send: (exp) => lessonRequest(exp, '[1, 2]'), status: 400, code: 3, message: /body/ },
  {
    name: 'missing session id',
    send: (exp) => lessonRequest(exp, { lessonSlug: 'network-automation' }),
    status: 400,
    code: 3,
    message: 'Session ID cannot be nil',
  },
  { name: 'missing lesson slug', send: (exp, sessionId) => lessonRequest(exp, { sessionId }), status: 400, code: 3, message: 'Lesson Slug cannot be nil' },
  {
    name: 'a form body (a cross-site HTML form)',
    send: (exp) => exp.call<GatewayErrorBody>('POST', '/exp/livesession', 'ip=1.2.3.4', { 'content-type': 'application/x-www-form-urlencoded' }),
    status: 415,
    code: 3,
    message: /unsupported content type/,
  },
  {
    name: "someone else's live lesson (DELETE, no session)",
    send: (exp) => exp.delete<GatewayErrorBody>('/exp/livelesson/nosuchlesson?sessionId=x'),
    status: 404,
    code: 5,
    message: 'livelesson not found',
  },
  {
    name: 'unknown live lesson id (GET)',
    send: (exp) => exp.get<GatewayErrorBody>('/exp/livelesson/nosuchlesson'),
    status: 404,
    code: 5,
    message: 'livelesson not found',
  },
  {
    name: 'unknown live lesson id (DELETE)',
    send: (exp) => exp.delete<GatewayErrorBody>('/exp/livelesson/nosuchlesson'),
    status: 404,
    code: 5,
    message: 'livelesson not found',
  },
  {
    name: 'unknown live lesson id (events)',
    send: (exp) => exp.get<GatewayErrorBody>('/exp/livelesson/nosuchlesson/events'),
    status: 404,
    code: 5,
    message: 'livelesson not found',
  },
  { name: 'a live lesson id that cannot be one', send: (exp) => exp.get<GatewayErrorBody>('/exp/livelesson/no%20such'), status: 400, code: 3, message: /id/ },
  {
    name: 'unknown session id (GET)',
    send: (exp) => exp.get<GatewayErrorBody>('/exp/livesession/nosuchsession'),
    status: 404,
    code: 5,
    message: 'Unable to find liveSession nosuchsession',
  },
];
