import { setTimeout as sleep } from 'node:timers/promises';
import type { LearnerClient } from './learner-client.js';
import { StreamFollower } from './stream-follower.js';

export const SLUGS = ['network-automation', 'linux-basics', 'web-services', 'jupyter-intro'];
/** The lessons with a second stage (for learners who change stage). */
const STAGED = ['network-automation', 'linux-basics', 'jupyter-intro'];

/**
 * What a learner does once the lab is READY: keeps it alive until the run ends (`keeper`), changes to
 * stage 1 then keeps it alive (`stager`), walks away so that the reaper expires it (`leaver`), or deletes
 * it (`deleter`; every other one before it is even READY).
 */
export type LearnerKind = 'keeper' | 'stager' | 'leaver' | 'deleter';
const KINDS: LearnerKind[] = ['keeper', 'stager', 'keeper', 'leaver', 'deleter'];
/** A page keeps its lab alive this often (the TTL is a minute or more). */
const KEEP_ALIVE_MS = 15_000;
/** A learner gives up following a stream after this (it would be a stuck stream in the account). */
const FOLLOW_MS = 300_000;

export interface LabRecord {
  id: string;
  kind: LearnerKind;
  acceptedAt: number;
  /** Time to READY at stage 0 from the lab's own phase times (initialized → ready), when it got there. */
  readyMs?: number;
  initializedAt?: number;
  readyAt?: number;
  /** The stage the learner ended on, and whether it deleted the lab. */
  stage: number;
  deleted: boolean;
  streams: StreamFollower[];
}

export interface Load {
  client: LearnerClient;
  /** When learners stop their keep-alives. */
  endAt: number;
  labs: LabRecord[];
  /** Answers a learner did not expect (a refusal, a stream that never ended). */
  problems: string[];
}

/** One learner, number `n`: a session, a lab, its event stream to READY, then what its kind does. */
export async function learner(load: Load, n: number): Promise<void> {
  const ip = `198.18.${n >> 8}.${n & 255}`;
  const { client } = load;
  const session = await client.call<{ ID: string }>('POST', '/exp/livesession', ip, {});
  if (session.status !== 200) return void load.problems.push(`learner ${n}: POST /exp/livesession ${session.status}`);
  const kind = KINDS[n % KINDS.length];
  const slug = kind === 'stager' ? STAGED[n % STAGED.length] : SLUGS[n % SLUGS.length];
  const ask = (stage: number) =>
    client.call<{ id: string }>('POST', '/exp/livelesson', ip, { sessionId: session.body.ID, lessonSlug: slug, lessonStage: stage });
  const requested = await ask(0);
  if (requested.status !== 200) return void load.problems.push(`learner ${n}: POST /exp/livelesson ${requested.status} ${JSON.stringify(requested.body)}`);
  const lab: LabRecord = { id: requested.body.id, kind, acceptedAt: Date.now(), stage: 0, deleted: false, streams: [] };
  load.labs.push(lab);
  const follow = async (stage: number): Promise<boolean> => {
    const stream = new StreamFollower(client, lab.id, ip);
    lab.streams.push(stream);
    const giveUp = setTimeout(() => stream.stop(), FOLLOW_MS);
    const last = await stream.follow(stage).finally(() => clearTimeout(giveUp));
    if (!last || stream.gone || last.deleted || last.error || last.status !== 'READY') {
      if (!lab.deleted)
        load.problems.push(`learner ${n}: stream of ${lab.id} ended at ${last ? JSON.stringify(last) : 'nothing'}${stream.gone ? ' (gone)' : ''}`);
      return false;
    }
    return true;
  };
  const remove = async (): Promise<void> => {
    lab.deleted = true;
    const answer = await client.call('DELETE', `/exp/livelesson/${lab.id}?sessionId=${session.body.ID}`, ip);
    if (answer.status !== 200 && answer.status !== 404) load.problems.push(`learner ${n}: DELETE ${answer.status}`);
  };
  if (lab.kind === 'deleter' && n % 2 === 0) {
    await sleep(1000 + (n % 3) * 1000);
    return remove();
  }
  if (!(await follow(0))) return;
  const details = await client.call<{ PhaseTimes?: { initializedAt?: string; readyAt?: string } }>('GET', `/exp/livelesson/${lab.id}`, ip);
  const times = details.body.PhaseTimes;
  if (times?.initializedAt && times.readyAt) {
    lab.initializedAt = Date.parse(times.initializedAt);
    lab.readyAt = Date.parse(times.readyAt);
    lab.readyMs = lab.readyAt - lab.initializedAt;
  }
  if (lab.kind === 'deleter') return remove();
  if (lab.kind === 'leaver') return;
  if (lab.kind === 'stager') {
    const changed = await ask(1);
    if (changed.status !== 200) return void load.problems.push(`learner ${n}: stage change ${changed.status} ${JSON.stringify(changed.body)}`);
    lab.stage = 1;
    if (!(await follow(1))) return;
  }
  while (Date.now() + KEEP_ALIVE_MS < load.endAt) {
    await sleep(KEEP_ALIVE_MS);
    const kept = await ask(lab.stage);
    if (kept.status !== 200) load.problems.push(`learner ${n}: keep-alive ${kept.status} ${JSON.stringify(kept.body)}`);
  }
}
