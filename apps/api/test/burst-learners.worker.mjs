// Learners of the api's burst benchmark, in a process of their own so their sockets and JSON cost the
// api's event loop nothing. Each learner, from its classroom's loopback address (one keep-alive pool per
// address, as a browser or a NAT address has), asks for a session, then a lab, as the front-end does. A
// refusal with a retry hint (429 or 503 with Retry-After) is counted and, when `retry` is on, waited out
// and sent again; any other answer ends the learner; a socket error or no answer in `timeoutMs` is
// counted as unanswered. Plain JavaScript: a forked process runs it untranspiled.
//
// Message in:  { api, slug, addresses: [address], retry, timeoutMs }
// Message out: { outcomes: [{ ms, session?, lesson?, why? }], refusals: { '<status>': n }, firstRefusalMs: [ms] }
import { Agent, request } from 'node:http';

const agents = new Map();
const agentOf = (address) => {
  if (!agents.has(address)) agents.set(address, new Agent({ keepAlive: true, localAddress: address }));
  return agents.get(address);
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function exchange(api, address, path, body, timeoutMs, fresh = false) {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = request(`${api}${path}`, {
      method: 'POST',
      // A request sent again after a reset goes on a new connection of its own (another pooled one may be as stale).
      ...(fresh ? { agent: false, localAddress: address } : { agent: agentOf(address) }),
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
    });
    let responded = false;
    const timer = setTimeout(() => req.destroy(Object.assign(new Error('no answer'), { code: 'NO_ANSWER' })), timeoutMs);
    req.on('response', (res) => {
      responded = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => (clearTimeout(timer), resolve({ status: res.statusCode, retryAfter: res.headers['retry-after'], text })));
      res.on('error', (error) => (clearTimeout(timer), reject(error)));
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(Object.assign(error, { resend: !responded && req.reusedSocket && error.code === 'ECONNRESET' }));
    });
    req.end(payload);
  });
}

async function learner({ api, slug, retry, timeoutMs }, address, tally) {
  const started = Date.now();
  const call = async (path, body) => {
    for (let resent = false; ;) {
      let answer;
      try {
        answer = await exchange(api, address, path, body, timeoutMs, resent);
      } catch (error) {
        // A reused keep-alive connection reset before any answer: sent once more on a new one, as a browser does.
        if (error.resend && !resent) {
          resent = true;
          continue;
        }
        throw new Error(`${path}: unanswered (${error.code ?? error.message})`);
      }
      if ((answer.status === 429 || answer.status === 503) && answer.retryAfter !== undefined) {
        tally.refusals[answer.status] = (tally.refusals[answer.status] ?? 0) + 1;
        if (tally.refusals[answer.status] === 1 || tally.firstRefusalMs.length < 50) tally.firstRefusalMs.push(Date.now() - started);
        if (!retry) return answer;
        await sleep(Number(answer.retryAfter) * 1000 + Math.random() * 1000);
        continue;
      }
      return answer;
    }
  };
  try {
    const session = await call('/exp/livesession', {});
    if (session.status !== 200) return { ms: Date.now() - started, session: session.status };
    const lesson = await call('/exp/livelesson', { sessionId: JSON.parse(session.text).ID, lessonSlug: slug, lessonStage: 0 });
    return { ms: Date.now() - started, session: 200, lesson: lesson.status, ...(lesson.status === 200 ? {} : { why: lesson.text.slice(0, 160) }) };
  } catch (error) {
    return { ms: Date.now() - started, why: error.message };
  }
}

process.on('message', async (message) => {
  const tally = { refusals: {}, firstRefusalMs: [] };
  const outcomes = await Promise.all(message.addresses.map((address) => learner(message, address, tally)));
  process.send({ outcomes, ...tally });
});
