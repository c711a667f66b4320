import { endpointUp, type EndpointHealth, type ProbeResult, type ProbeVerdict, type WaitReachableReply } from '@antidote/contracts';

const VERDICT: Record<ProbeVerdict, string> = {
  reachable: 'answered',
  'credentials-rejected': 'answered (login refused)',
  refused: 'refused the connection',
  timeout: 'did not answer in time',
  unreachable: 'could not be reached',
  'bad-response': 'gave an unexpected answer',
};

/** Every endpoint up: reachable, and ready where it has a readiness check (so not only the reply's word for it). */
export const allUp = (reply: Pick<WaitReachableReply, 'reachable' | 'endpoints'>): boolean => reply.reachable && reply.endpoints.every(endpointUp);

const probeText = (host: string, probe: ProbeResult): string => {
  const detail = probe.verdict === 'refused' || !probe.error ? '' : ` (${probe.error})`;
  const status = probe.httpStatus === undefined ? '' : ` HTTP ${probe.httpStatus}`;
  return `${probe.target} (${probe.kind} to ${host}:${probe.port}) ${VERDICT[probe.verdict]}${status}${detail}`;
};

/** Reachable but its readiness check not passed yet. */
const waitsForReadiness = (endpoint: EndpointHealth): boolean => endpoint.reachable && endpoint.readiness?.ready === false;

const endpointText = (endpoint: EndpointHealth): string => {
  if (waitsForReadiness(endpoint)) return `${endpoint.name}: reachable, not ready — ready check ${endpoint.readiness!.detail}`;
  const failing = endpoint.probes.filter((probe) => !probe.reachable);
  const why = endpoint.error ?? (failing.length > 0 ? failing.map((probe) => probeText(endpoint.host, probe)).join(', ') : 'no probe succeeded');
  return `${endpoint.name}: ${why}`;
};

const listOf = (names: string[]): string => (names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);

/**
 * Why a live lesson's endpoints were not up, for the learner and the operator: which endpoints, within
 * how long, and what each failing probe or readiness check saw, e.g.
 * `vqfx2 did not become reachable within 3 s — vqfx2: cli (ssh to 127.20.0.2:22) refused the connection`, or
 * `vqfx1 did not become ready within 3 s — vqfx1: reachable, not ready — ready check "show version" output did not match /Model/ yet: "booting"`.
 */
export function unreachableReason(endpoints: readonly EndpointHealth[], deadlineSeconds: number): string {
  const down = endpoints.filter((endpoint) => !endpointUp(endpoint));
  const what = down.every(waitsForReadiness) ? 'ready' : down.some(waitsForReadiness) ? 'reachable and ready' : 'reachable';
  return `${listOf(down.map((endpoint) => endpoint.name))} did not become ${what} within ${deadlineSeconds} s — ${down.map(endpointText).join('; ')}`;
}
