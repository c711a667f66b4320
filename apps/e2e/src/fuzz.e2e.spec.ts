import { ErrorCodes, inboxPrefixOf, requestContracts, requestRoutes, RequestSubjects, type BusIdentity, type RequestSubject } from '@antidote/contracts';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { antictlUp, type UpPlatform } from './support/antictl-up.js';
import { expClient } from './support/exp-client.js';
import { HOSTILE_BODIES, HOSTILE_VALUES, mutations } from './support/hostile-inputs.js';

const ADMIN_TOKEN = 'fuzz-admin-token';
const APPS = ['api', 'scheduler', 'healthchecker', 'reaper'];
const LONG = 300_000;
const encoder = new TextEncoder();

/** A valid request per subject, for an id no live lesson has: every mutation of it is wrong or unknown. */
const NATS_SAMPLES: Record<RequestSubject, Record<string, unknown>> = {
  [RequestSubjects.liveLessonCreate]: { liveLessonId: 'fuzz000001' },
  [RequestSubjects.liveLessonModify]: { liveLessonId: 'fuzz000001', stage: 0 },
  [RequestSubjects.liveLessonDelete]: { liveLessonId: 'fuzz000001', reason: 'fuzz' },
  [RequestSubjects.liveLessonKeepAlive]: { liveLessonId: 'fuzz000001' },
  [RequestSubjects.liveLessonBind]: { liveLessonId: 'fuzz000001' },
  [RequestSubjects.healthCheck]: { liveLessonId: 'fuzz000001', timeoutMs: 1000 },
  [RequestSubjects.healthWaitReachable]: { liveLessonId: 'fuzz000001', deadlineMs: 1000, intervalMs: 100 },
  [RequestSubjects.reaperDryRun]: {},
};

interface OpenApiOperation {
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content: { 'application/json': { schema: { properties?: Record<string, { type?: string }> } } } };
  responses: Record<string, { content?: Record<string, unknown> }>;
}

/** A plausible value per JSON-schema type, to build a valid-looking body from a route's schema. */
const PLAUSIBLE: Record<string, unknown> = { string: 'fuzz', integer: 0, number: 0, boolean: true };
/** Path parameter values: encoded, as a client would put them in a URL. */
const HOSTILE_SEGMENTS = HOSTILE_VALUES.filter(([, value]) => typeof value === 'string' && value !== '').map(([name, value]) => [
  name,
  encodeURIComponent(value as string),
]);

/**
 * Every NATS request subject and every HTTP route the api documents, fed systematically hostile input
 * against the real processes (`antictl up`): each answer is a clear refusal (an error reply naming
 * INVALID_PAYLOAD for what breaks the contract; a 4xx for HTTP), nothing is left unanswered, no process
 * restarts, and afterwards a learner still gets a lab.
 */
describe('hostile input on every NATS subject and HTTP route (real processes)', () => {
  let platform: UpPlatform;
  /** A connection per identity: each subject is fed by a login allowed to ask it. */
  const logins = new Map<BusIdentity, NatsConnection>();
  const natsFor = async (subject: RequestSubject): Promise<NatsConnection> => {
    const identity: BusIdentity = requestRoutes[subject].askedBy[0];
    const { user, password } = platform.credentials[identity];
    if (!logins.has(identity)) logins.set(identity, await connect({ servers: platform.nats, user, pass: password, inboxPrefix: inboxPrefixOf(user) }));
    return logins.get(identity)!;
  };
  const pids = new Map<string, number>();

  beforeAll(async () => {
    platform = await antictlUp({ config: { api: { adminToken: ADMIN_TOKEN, rateLimitPerMinute: 0 } } });
    for (const app of APPS) pids.set(app, platform.pidOf(app));
  });

  afterAll(async () => {
    for (const connection of logins.values()) await connection.close();
    expect(await platform?.stop()).toBe(0);
  });

  it.each(Object.values(RequestSubjects))('%s: every hostile request gets an error reply, never silence', { timeout: LONG }, async (subject) => {
    const schema = requestContracts[subject].request;
    const inputs: Array<[string, string | Uint8Array, boolean]> = [
      // An empty body is `{}` on the bus (a request with no fields): valid where the contract has none.
      ...HOSTILE_BODIES.map(([name, body]): [string, string | Uint8Array, boolean] => [name, body, body === '' && schema.safeParse({}).success]),
      ...mutations(NATS_SAMPLES[subject]).map(([name, body]): [string, string, boolean] => [name, JSON.stringify(body), schema.safeParse(body).success]),
    ];
    const failures: string[] = [];
    const nats = await natsFor(subject);
    for (const [name, body, valid] of inputs) {
      const reply = await nats.request(subject, typeof body === 'string' ? encoder.encode(body) : body, { timeout: 30_000 }).then(
        (message) => message.json<{ error?: { code: string; message: string } }>(),
        (error: Error) => ({ silence: error.message }),
      );
      if ('silence' in reply) failures.push(`${name}: no reply (${reply.silence})`);
      else if (!valid && reply.error?.code !== ErrorCodes.invalidPayload) failures.push(`${name}: ${JSON.stringify(reply).slice(0, 200)}`);
      else if (valid && reply.error?.code === ErrorCodes.internal) failures.push(`${name}: internal error ${reply.error.message}`);
    }
    console.log(`fuzz: ${inputs.length} requests on ${subject}`);
    expect(failures).toEqual([]);
    expect(inputs.length).toBeGreaterThan(HOSTILE_BODIES.length);
  });

  it('every documented HTTP route answers hostile path parameters and bodies with 4xx, never 5xx', { timeout: LONG }, async () => {
    const document = (await (await fetch(`${platform.api}/exp/openapi.json`)).json()) as { paths: Record<string, Record<string, OpenApiOperation>> };
    const failures: string[] = [];
    let sent = 0;
    const send = async (method: string, path: string, body: string | Uint8Array | undefined, admin: boolean, stream: boolean) => {
      sent++;
      const abort = new AbortController();
      const response = await fetch(`${platform.api}${path}`, {
        method: method.toUpperCase(),
        headers: {
          'x-forwarded-for': '10.9.0.1',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(admin ? { authorization: `Bearer ${ADMIN_TOKEN}` } : {}),
        },
        body,
        signal: AbortSignal.any([abort.signal, AbortSignal.timeout(20_000)]),
      }).catch((error: Error) => error);
      if (response instanceof Error) return failures.push(`${method} ${path}: ${response.message}`);
      if (stream && response.status === 200) abort.abort();
      else await response.text().catch(() => '');
      if (response.status >= 500) failures.push(`${method} ${path} ${body === undefined ? '' : String(body).slice(0, 60)} → ${response.status}`);
    };
    for (const [template, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const stream = Boolean(operation.responses['200']?.content?.['text/event-stream']);
        const params = (operation.parameters ?? []).filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name);
        const paths =
          params.length === 0 ? [template] : HOSTILE_SEGMENTS.map(([, segment]) => params.reduce((path, name) => path.replace(`{${name}}`, segment), template));
        const properties = operation.requestBody?.content['application/json'].schema.properties;
        const sample = properties
          ? Object.fromEntries(Object.entries(properties).map(([name, { type }]) => [name, PLAUSIBLE[type ?? 'string'] ?? 'fuzz']))
          : undefined;
        const bodies: Array<string | Uint8Array | undefined> = sample
          ? [...HOSTILE_BODIES.map(([, body]) => body), ...mutations(sample).map(([, body]) => JSON.stringify(body))]
          : [undefined];
        for (const path of paths) for (const body of bodies) for (const admin of [false, true]) await send(method, path, body, admin, stream);
      }
    }
    console.log(`fuzz: ${sent} HTTP requests over ${Object.keys(document.paths).length} documented paths`);
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(200);
  });

  it('no process restarted, and a learner still gets a lab', { timeout: LONG }, async () => {
    for (const app of APPS) {
      expect(platform.pidOf(app), app).toBe(pids.get(app));
      expect(() => process.kill(pids.get(app)!, 0), app).not.toThrow();
    }
    const exp = expClient(platform.api, '10.9.0.2');
    const id = await exp.requestLesson(await exp.newSession(), 'linux-basics', 0);
    await exp.waitUntilReady(id, 0);
  });
});
