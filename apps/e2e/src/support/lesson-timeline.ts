import type { LabStart } from './lab-start.js';
import type { SimEndpoint, SimRequest } from './exp-client.js';
import type { KubeApi } from '@antidote/kube-sim';

/** One step of a lesson's start, ms after its request. */
export interface TimelineStep {
  ms: number;
  /** Who saw it: the learner's client, kube-sim's request log, a watch of the cluster, kube-sim's endpoints (probes), the row. */
  source: 'client' | 'api call' | 'watch' | 'probe' | 'row';
  what: string;
}

/** A change of a pod or Job as a watch of the whole cluster saw it, with when it arrived (epoch ms). */
export interface WatchedChange {
  at: number;
  kind: 'Pod' | 'Job';
  namespace: string;
  name: string;
  state: string;
}

interface WatchedObject {
  metadata: { name: string; namespace: string };
  status?: { phase?: string; containerStatuses?: { state?: { waiting?: { reason?: string } } }[]; conditions?: { type: string; status: string }[] };
}

const podState = (pod: WatchedObject): string => {
  const waiting = pod.status?.containerStatuses?.find((status) => status.state?.waiting)?.state?.waiting?.reason;
  return `${pod.status?.phase ?? 'created'}${waiting ? ` (${waiting})` : ''}`;
};
const jobState = (job: WatchedObject): string => job.status?.conditions?.find((condition) => condition.status === 'True')?.type ?? 'running';

/** Watches every pod and Job of the cluster (kube-sim) and keeps each change that changed its state, until `stop()`. */
export function watchCluster(kubeSim: KubeApi) {
  const changes: WatchedChange[] = [];
  const abort = new AbortController();
  const last = new Map<string, string>();
  const follow = (path: string, kind: WatchedChange['kind']) =>
    kubeSim.watch(
      `${path}?watch=true`,
      ({ type, object }) => {
        const watched = object as unknown as WatchedObject;
        const state = type === 'DELETED' ? 'deleted' : kind === 'Pod' ? podState(watched) : jobState(watched);
        const key = `${kind} ${watched.metadata.namespace}/${watched.metadata.name}`;
        if (last.get(key) === state) return;
        last.set(key, state);
        changes.push({ at: Date.now(), kind, namespace: watched.metadata.namespace, name: watched.metadata.name, state });
      },
      abort.signal,
    );
  const done = Promise.all([follow('/api/v1/pods', 'Pod'), follow('/apis/batch/v1/jobs', 'Job')]);
  return {
    changes,
    async stop(): Promise<void> {
      abort.abort();
      await done;
    },
  };
}

/**
 * Every step of one lesson's start that can be seen from outside the apps, in order, ms after its request:
 * the learner's stream events, the scheduler's Kubernetes calls (kube-sim's request log), its pods' and
 * Jobs' changes (a watch), the probes each endpoint's Service accepted (first and last, by boot stage),
 * the phase times the row records and each endpoint's up time (its progress event's).
 */
export function lessonTimeline(
  lab: LabStart,
  namespace: string,
  requests: readonly SimRequest[],
  changes: readonly WatchedChange[],
  endpoints: readonly SimEndpoint[],
): TimelineStep[] {
  const from = lab.requestedAt;
  const steps: TimelineStep[] = [];
  const add = (at: number, source: TimelineStep['source'], what: string) => steps.push({ ms: at - from, source, what });
  for (const event of lab.events)
    add(
      event.at,
      'client',
      `stream: ${event.name} ${event.data.status ?? ''}${event.data.healthy === undefined ? '' : `${event.data.healthy} healthy`}`.trim(),
    );
  for (const request of requests.filter((r) => r.namespace === namespace && r.at))
    add(
      Date.parse(request.at!),
      'api call',
      `${request.userAgent.replace('antidote-', '')} ${request.verb} ${request.resource}${request.subresource ? `/${request.subresource}` : ''} ${request.code}`,
    );
  for (const change of changes.filter((c) => c.namespace === namespace)) add(change.at, 'watch', `${change.kind} ${change.name} ${change.state}`);
  for (const endpoint of endpoints.filter((e) => e.kind === 'Service')) {
    for (const [port, stages] of Object.entries(endpoint.connections)) {
      for (const [stage, seen] of Object.entries(stages)) {
        add(seen.firstAt, 'probe', `${endpoint.name}:${port} ${stage}: first of ${seen.count}`);
        if (seen.count > 1) add(seen.lastAt, 'probe', `${endpoint.name}:${port} ${stage}: last of ${seen.count}`);
      }
    }
  }
  for (const [phase, at] of Object.entries(lab.final.PhaseTimes)) add(Date.parse(at), 'row', phase);
  for (const event of lab.events.filter((e) => e.name === 'progress' && e.data.at))
    add(Date.parse(event.data.at!), 'row', `${event.data.endpoint} up (${event.data.healthy} healthy)`);
  return steps.sort((a, b) => a.ms - b.ms);
}

/** The timeline as lines of a report. */
export const timelineLines = (steps: readonly TimelineStep[]): string[] =>
  steps.map((step) => `  ${String(step.ms).padStart(7)} ms  ${step.source.padEnd(8)}  ${step.what}`);
