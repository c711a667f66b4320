// Learners of the scale benchmark, in a process of their own (several of them), so that the platform is
// measured, not one client process's sockets and event loop. Each learner is a browser of a classroom
// behind one loopback address: its connections are made from its group's address (the socket's local
// address, no x-forwarded-for), so every per-client limit of the api counts that classroom. A learner
// does what antidote-web does: a session, a lab, the lab's event stream until it ends (READY, an error or
// a deletion), then the lab as it ended. A refusal with a retry hint (429 or 503 with Retry-After) is
// waited out and sent again, and counted; a request whose reused keep-alive connection was reset before
// any answer is sent once more on a new one, as a browser does; anything else ends the learner with its
// cause: the status and the api's message, or the socket error's code (ECONNRESET, ETIMEDOUT, …). Plain JavaScript: a forked
// process runs it untranspiled.
//
// Messages in: { kind: 'burst', api, slug, learners: [{ address }] }
//              { kind: 'keepAlive', api, slug, held: [{ address, session, id }], concurrency }
// Messages out: { kind: 'burst', outcomes: [{ ms, ready, why?, held? }], refusals: { '<status>': n } }
//               { kind: 'keepAlive', failures: [why], refusals }
import { Agent, request } from 'node:http';

const REQUEST_TIMEOUT_MS = 60_000;
const STREAM_TIMEOUT_MS = 1_800_000;
/** A learner gives up retrying refusals after this long (a browser's user would have left). */
const GIVE_UP_MS = 900_000;

const agents = new Map();
/** One keep-alive pool per address, as one browser (or one NAT address of a classroom) has. */
const agentOf = (address) => {
  if (!agents.has(address)) agents.set(address, new Agent({ keepAlive: true, localAddress: address }));
  return agents.get(address);
};

let refusals = {};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One HTTP exchange; `onBody: 'stream'` reads a server-sent event stream to its end. */
function exchange(api, address, method, path, body, timeoutMs, fresh = false) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(`${api}${path}`, {
      method,
      // A request sent again after a reset goes on a new connection of its own (another pooled one may be as stale).
      ...(fresh ? { agent: false, localAddress: address } : { agent: agentOf(address) }),
      headers: payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
    });
    const timer = setTimeout(() => req.destroy(Object.assign(new Error('timed out'), { code: 'CLIENT_TIMEOUT' })), timeoutMs);
    let responded = false;
    req.on('response', (res) => {
      responded = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode, retryAfter: res.headers['retry-after'], text });
      });
      res.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      // A browser sends again a request whose reused keep-alive connection the server had closed meanwhile; the cause says which it was.
      reject(Object.assign(error, { connection: responded ? 'response' : req.reusedSocket ? 'reused connection' : 'new connection' }));
    });
    req.end(payload);
  });
}

/** An exchange whose refusals with a retry hint are waited out; any other error is thrown with its cause. */
async function call(api, address, method, path, body, timeoutMs = REQUEST_TIMEOUT_MS) {
  const until = Date.now() + GIVE_UP_MS;
  let resent = false;
  for (;;) {
    let answer;
    try {
      answer = await exchange(api, address, method, path, body, timeoutMs, resent);
    } catch (error) {
      // A reused keep-alive connection the server had closed meanwhile, before any answer: a browser sends the request again on a new one.
      if (error.connection === 'reused connection' && error.code === 'ECONNRESET' && !resent) {
        resent = true;
        continue;
      }
      throw new Error(`${method} ${routeOf(path)}: socket ${error.code ?? error.message} (${error.connection ?? 'response'})`);
    }
    const hint = Number(answer.retryAfter);
    if ((answer.status === 429 || answer.status === 503) && Number.isFinite(hint) && Date.now() < until) {
      refusals[answer.status] = (refusals[answer.status] ?? 0) + 1;
      await sleep(hint * 1000 + Math.random() * 1000); // as many browsers would: not all in the same millisecond
      continue;
    }
    return answer;
  }
}

const routeOf = (path) => path.replace(/(\/livelesson\/)[^/]+/, '$1{id}');
const failure = (method, path, answer) => {
  let message = answer.text.slice(0, 200);
  try {
    message = JSON.parse(answer.text).message ?? message;
  } catch {
    // not JSON: the text itself
  }
  return `${method} ${routeOf(path)}: HTTP ${answer.status}${answer.retryAfter ? ` (Retry-After ${answer.retryAfter})` : ''}: ${message}`;
};

async function learner(api, slug, address) {
  const requestedAt = Date.now();
  try {
    const session = await call(api, address, 'POST', '/exp/livesession', {});
    if (session.status !== 200) return { ms: Date.now() - requestedAt, ready: false, why: failure('POST', '/exp/livesession', session) };
    const sessionId = JSON.parse(session.text).ID;
    const lesson = await call(api, address, 'POST', '/exp/livelesson', { sessionId, lessonSlug: slug, lessonStage: 0 });
    if (lesson.status !== 200) return { ms: Date.now() - requestedAt, ready: false, why: failure('POST', '/exp/livelesson', lesson) };
    const id = JSON.parse(lesson.text).id;
    const stream = await call(api, address, 'GET', `/exp/livelesson/${id}/events`, undefined, STREAM_TIMEOUT_MS);
    if (stream.status !== 200) return { ms: Date.now() - requestedAt, ready: false, why: failure('GET', `/exp/livelesson/${id}/events`, stream) };
    const ms = Date.now() - requestedAt;
    const final = await call(api, address, 'GET', `/exp/livelesson/${id}`);
    if (final.status !== 200) return { ms, ready: false, why: failure('GET', `/exp/livelesson/${id}`, final) };
    const row = JSON.parse(final.text);
    if (row.Status !== 'READY') return { ms, ready: false, why: `lesson ${row.Status}: ${row.Error ?? ''}` };
    return { ms, ready: true, held: { address, session: sessionId, id } };
  } catch (error) {
    return { ms: Date.now() - requestedAt, ready: false, why: error.message };
  }
}

/** The original's keep-alive ("BOOP"): the learner asks again for the stage it is at. */
async function keepAlive(api, slug, { address, session, id }) {
  try {
    const answer = await call(api, address, 'POST', '/exp/livelesson', { sessionId: session, lessonSlug: slug, lessonStage: 0 });
    if (answer.status !== 200) return failure('POST', '/exp/livelesson', answer);
    return JSON.parse(answer.text).id === id ? undefined : 'keep-alive answered another lab';
  } catch (error) {
    return error.message;
  }
}

process.on('message', async (message) => {
  refusals = {};
  if (message.kind === 'burst') {
    const outcomes = await Promise.all(message.learners.map(({ address }) => learner(message.api, message.slug, address)));
    process.send({ kind: 'burst', outcomes, refusals });
  } else if (message.kind === 'keepAlive') {
    const failures = [];
    for (let at = 0; at < message.held.length; at += message.concurrency) {
      const round = await Promise.all(message.held.slice(at, at + message.concurrency).map((held) => keepAlive(message.api, message.slug, held)));
      failures.push(...round.filter((why) => why !== undefined));
    }
    process.send({ kind: 'keepAlive', failures, refusals });
  }
});
