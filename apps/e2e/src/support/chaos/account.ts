import { LABEL, MANAGED, namespaceName } from '@antidote/lesson-objects';
import { INSTANCE } from '@antidote/testing';
import type { ChaosPlatform } from './chaos-platform.js';
import type { Fault, FaultKind } from './faults.js';
import type { Answer } from './learner-client.js';
import type { LabRecord, Load } from './learners.js';

/** 503 with Retry-After is allowed from a database restart until this long after the server is back. */
const DATABASE_GRACE_MS = 10_000;
/** A lab counts as hit by a fault when the fault came while it was on its way to READY (or up to this before). */
const HIT_MARGIN_MS = 1000;

export interface ChaosAccount {
  accepted: number;
  ready: number;
  deletedByLearners: number;
  expired: number;
  lost: string[];
  failed: string[];
  stuck: string[];
  duplicates: string[];
  orphans: string[];
  answers: number;
  /** 5xx a learner saw that are not a 503 with Retry-After during a database restart. */
  serverErrors: Answer[];
  allowed503: number;
  rerouted: number;
  streams: number;
  /** Streams a learner gave up on (never reached a final state). */
  silentStreams: string[];
  /** Labs READY while nats-server was down, and how long after it was back their stream showed it. */
  readyDuringNatsOutage: number;
  natsCatchUpMs: number[];
  baselineReadyMs: number;
  /** Per fault kind: the time to READY it added to the labs on their way when it hit (worst, median). */
  added: Map<FaultKind, { hit: number; worstMs: number; medianMs: number }>;
  redrives: string[];
  maxReaperLeaders: number;
  problems: string[];
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor(sorted.length / 2)];
};

function timeToReady(labs: LabRecord[], faults: Fault[]): Pick<ChaosAccount, 'baselineReadyMs' | 'added'> {
  const timed = labs.filter((lab) => lab.readyMs !== undefined && lab.initializedAt !== undefined);
  const hitBy = (lab: LabRecord, fault: Fault) => fault.at >= lab.initializedAt! - HIT_MARGIN_MS && fault.at <= lab.readyAt!;
  const calm = timed.filter((lab) => !faults.some((fault) => hitBy(lab, fault)));
  const baselineReadyMs = median(calm.map((lab) => lab.readyMs!));
  // A lab on its way through several faults owes its delay to the first: the later ones found it late already.
  const firstHit = (lab: LabRecord) => faults.filter((fault) => hitBy(lab, fault)).sort((a, b) => a.at - b.at)[0];
  const added = new Map<FaultKind, { hit: number; worstMs: number; medianMs: number }>();
  for (const kind of new Set(faults.map((fault) => fault.kind))) {
    const extra = timed.filter((lab) => firstHit(lab)?.kind === kind).map((lab) => Math.max(0, lab.readyMs! - baselineReadyMs));
    added.set(kind, { hit: extra.length, worstMs: extra.length ? Math.max(...extra) : 0, medianMs: median(extra) });
  }
  return { baselineReadyMs, added };
}

/** After the run has settled: every accepted request accounted for, from the database and kube-sim's own records. */
export async function account(chaos: ChaosPlatform, load: Load, faults: Fault[], maxReaperLeaders: number): Promise<ChaosAccount> {
  const { platform } = chaos;
  const rows = new Map((await platform.data.liveLessons.list()).map((row) => [row.id, row]));
  const lost: string[] = [];
  const failed: string[] = [];
  const stuck: string[] = [];
  let ready = 0;
  let expired = 0;
  for (const lab of load.labs) {
    const row = rows.get(lab.id);
    if (row?.error) failed.push(`${lab.id} (${lab.kind}): ${row.failureReason ?? 'no reason'}`);
    else if (lab.deleted && row) stuck.push(`${lab.id}: deleted by its learner, still ${row.status}`);
    else if (lab.deleted) continue;
    else if (!row && lab.kind === 'leaver') expired++;
    else if (!row) lost.push(`${lab.id} (${lab.kind}): no record`);
    else if (row.status !== 'READY' || row.currentStage !== lab.stage) stuck.push(`${lab.id} (${lab.kind}): ${row.status} at stage ${row.currentStage}`);
    else ready++;
  }
  const sim = platform.sim;
  const managed = sim.list('namespaces').filter((ns) => ns.metadata.labels?.[LABEL.managed] === MANAGED && ns.metadata.labels?.[LABEL.antidoteId] === INSTANCE);
  const orphans = managed
    .filter((ns) => !ns.metadata.deletionTimestamp && !rows.has(ns.metadata.labels?.[LABEL.liveLesson] ?? ''))
    .map((ns) => ns.metadata.name ?? '');
  const requests = sim.counters.requests();
  const podCreates = new Map<string, number>();
  for (const r of requests)
    if (r.verb === 'create' && r.resource === 'pods' && r.code === 201 && r.namespace) podCreates.set(r.namespace, (podCreates.get(r.namespace) ?? 0) + 1);
  const duplicates: string[] = [];
  for (const lab of load.labs) {
    if (rows.get(lab.id)?.status !== 'READY') continue;
    const namespace = namespaceName(INSTANCE, lab.id);
    const pods = sim.list('pods', namespace).filter((pod) => !pod.metadata.labels?.[LABEL.configPod]).length;
    if ((podCreates.get(namespace) ?? 0) !== pods) duplicates.push(`${lab.id}: ${podCreates.get(namespace)} pod creates for ${pods} pods`);
  }
  const namespaceCreates = requests.filter((r) => r.verb === 'create' && r.resource === 'namespaces' && r.code === 201).length;
  if (namespaceCreates > load.labs.length) duplicates.push(`${namespaceCreates} namespaces created for ${load.labs.length} labs`);

  const restarts = faults.filter((fault) => fault.kind === 'postgres restart');
  const allowed = (answer: Answer) =>
    answer.status === 503 &&
    answer.retryAfter !== undefined &&
    restarts.some((fault) => answer.at >= fault.at && answer.at <= fault.backAt + DATABASE_GRACE_MS);
  const answers = load.client.answers;
  const streams = load.labs.flatMap((lab) => lab.streams);
  const outages = faults.filter((fault) => fault.kind === 'nats restart');
  const duringOutage = load.labs.filter(
    (lab) => lab.readyAt !== undefined && outages.some((fault) => lab.readyAt! >= fault.at && lab.readyAt! <= fault.backAt),
  );
  const natsCatchUpMs = duringOutage.map((lab) => {
    const outage = outages.find((fault) => lab.readyAt! >= fault.at && lab.readyAt! <= fault.backAt)!;
    const shown = lab.streams[0]?.seen.find((status) => status.status === 'READY')?.at ?? Number.POSITIVE_INFINITY;
    return Math.max(0, shown - outage.backAt);
  });
  return {
    accepted: load.labs.length,
    ready,
    deletedByLearners: load.labs.filter((lab) => lab.deleted).length,
    expired,
    lost,
    failed,
    stuck,
    duplicates,
    orphans,
    answers: answers.length,
    serverErrors: answers.filter((answer) => answer.status >= 500 && !allowed(answer)),
    allowed503: answers.filter(allowed).length,
    rerouted: load.client.rerouted,
    streams: streams.length,
    silentStreams: streams
      .filter((stream) => !stream.gone && !(stream.last && (stream.last.deleted || stream.last.error || stream.last.status === 'READY')))
      .map((stream) => stream.liveLessonId),
    readyDuringNatsOutage: duringOutage.length,
    natsCatchUpMs,
    ...timeToReady(load.labs, faults),
    redrives: chaos.noted.filter((line) => line.msg.startsWith('re-drive of live lesson')).map((line) => `${line.replica}: ${line.msg}`),
    maxReaperLeaders,
    problems: load.problems,
  };
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** The account as printed at the end of a run. */
export function printable(title: string, a: ChaosAccount, faults: Fault[], started: number): string {
  const kinds = [...new Set(faults.map((fault) => fault.kind))].map((kind) => `${kind} ×${faults.filter((fault) => fault.kind === kind).length}`);
  const when = (fault: Fault) => `${fault.kind} (${fault.target}) at ${seconds(fault.at - started)}, back at ${seconds(fault.backAt - started)}`;
  return [
    `${title}; ${faults.length} faults: ${kinds.join(', ')}`,
    `  faults: ${faults.map(when).join('; ')}`,
    `  accepted ${a.accepted}: READY ${a.ready}, deleted ${a.deletedByLearners + a.expired} (${a.deletedByLearners} by learners, ${a.expired} expired); lost ${a.lost.length}, failed ${a.failed.length}, stuck ${a.stuck.length}, duplicates ${a.duplicates.length}, orphans ${a.orphans.length}`,
    `  learners' answers ${a.answers}: 5xx ${a.serverErrors.length} (503 with Retry-After during the database restart: ${a.allowed503}); requests sent to the other api while one was dead: ${a.rerouted}`,
    `  event streams ${a.streams}: ${a.streams - a.silentStreams.length} ended in their lab's row state, ${a.silentStreams.length} silent; ${a.readyDuringNatsOutage} labs turned READY while NATS was down, their streams showed it at most ${seconds(Math.max(0, ...a.natsCatchUpMs))} after it was back`,
    `  time to READY: median ${seconds(a.baselineReadyMs)} without a fault; added by a fault to the labs on their way (worst / median):`,
    ...[...a.added].map(
      ([kind, added]) => `    ${kind.padEnd(32)} ${seconds(added.worstMs).padStart(7)} / ${seconds(added.medianMs).padStart(7)}  (${added.hit} labs)`,
    ),
    `  re-drives logged (lab, reason, new owner): ${a.redrives.length}${a.redrives.length ? `, e.g. ${a.redrives[0]}` : ''}`,
    `  reaper leaders at once: at most ${a.maxReaperLeaders}`,
    ...[
      ...a.lost,
      ...a.failed,
      ...a.stuck,
      ...a.duplicates,
      ...a.orphans.map((name) => `orphan ${name}`),
      ...a.serverErrors.map((answer) => `${answer.status} on ${answer.route}`),
      ...a.problems,
    ]
      .slice(0, 12)
      .map((line) => `  ! ${line}`),
  ].join('\n');
}
