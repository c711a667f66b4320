import type { expClient, ExpLiveLesson } from './exp-client.js';

/** How one learner's request ended: READY (with the lesson as it then was) or not, and after how long. */
export type Outcome = { ms: number; ready: true; lesson: ExpLiveLesson } | { ms: number; ready: false; why: string };

/** Follows the live lesson's server-sent events until READY, an error or deletion, as the front-end does; then reads where it ended. */
export async function untilFinal(exp: ReturnType<typeof expClient>, api: string, ip: string, id: string, requestedAt: number): Promise<Outcome> {
  // From the learner's own address: the api caps event streams per client.
  const stream = await fetch(`${api}/exp/livelesson/${id}/events`, { headers: { 'x-forwarded-for': ip }, signal: AbortSignal.timeout(1_200_000) });
  if (stream.status !== 200) return { ms: Date.now() - requestedAt, ready: false, why: `event stream HTTP ${stream.status}: ${await stream.text()}` };
  await stream.text();
  const ms = Date.now() - requestedAt;
  const final = await exp.get<ExpLiveLesson & { message?: string }>(`/exp/livelesson/${id}`);
  if (final.status === 200 && final.body.Status === 'READY') return { ms, ready: true, lesson: final.body };
  return { ms, ready: false, why: `HTTP ${final.status}: ${final.body.message ?? final.body.Status}` };
}
