import type { EndpointHealth, ProbeResult, ProbeVerdict } from '@antidote/contracts';

const VERDICT: Record<ProbeVerdict, string> = {
  reachable: 'answered',
  'credentials-rejected': 'answered (login refused)',
  refused: 'refused the connection',
  timeout: 'did not answer in time',
  unreachable: 'could not be reached',
  'bad-response': 'gave an unexpected answer',
};

const probeText = (host: string, probe: ProbeResult): string => {
  const detail = probe.verdict === 'refused' || !probe.error ? '' : ` (${probe.error})`;
  const status = probe.httpStatus === undefined ? '' : ` HTTP ${probe.httpStatus}`;
  return `${probe.target} (${probe.kind} to ${host}:${probe.port}) ${VERDICT[probe.verdict]}${status}${detail}`;
};

const endpointText = (endpoint: EndpointHealth): string => {
  const failing = endpoint.probes.filter((probe) => !probe.reachable);
  const why = endpoint.error ?? (failing.length > 0 ? failing.map((probe) => probeText(endpoint.host, probe)).join(', ') : 'no probe succeeded');
  return `${endpoint.name}: ${why}`;
};

const listOf = (names: string[]): string => (names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);

/**
 * Why a live lesson's endpoints were not reachable, for the learner and the operator: which endpoints,
 * within how long, and what each failing probe saw, e.g.
 * `vqfx2 did not become reachable within 3 s — vqfx2: cli (ssh to 127.20.0.2:22) refused the connection`.
 */
export function unreachableReason(endpoints: readonly EndpointHealth[], deadlineSeconds: number): string {
  const unreachable = endpoints.filter((endpoint) => !endpoint.reachable);
  return `${listOf(unreachable.map((endpoint) => endpoint.name))} did not become reachable within ${deadlineSeconds} s — ${unreachable.map(endpointText).join('; ')}`;
}
