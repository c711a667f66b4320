import { readinessPort, type EndpointHealth, type HealthTarget, type ProbeKind, type ProbeResult, type ReadinessResult } from '@antidote/contracts';
import { describeCheck, evaluateReadiness, SOCKET_FETCHERS } from '../readiness/readiness-evaluator.js';
import type { FetchOutcome, ReadinessFetchers } from '../readiness/readiness-fetch.js';
import { sshProbeWithCommand } from '../readiness/ssh-probe-command.js';
import { Semaphore } from '@antidote/concurrency';
import { httpProbe } from './http.probe.js';
import type { ProbeOutcome, ProbeTarget } from './probe.types.js';
import { sshProbe, type SshCredentials } from './ssh.probe.js';
import { tcpProbe } from './tcp.probe.js';

export interface ProbeSettings {
  probeTimeoutMs: number;
  httpHealthyBelow: number;
  maxConcurrentProbes: number;
  /** Bound of one readiness pattern match (default `MATCH_TIME_LIMIT_MS`). */
  readinessMatchTimeoutMs?: number;
}

interface PlannedProbe {
  target: string;
  kind: ProbeKind;
  port: number;
}

/** One probe per presentation (ssh → SSH login, http → HTTP GET); no presentations → TCP on the first port. */
export function plannedProbes(endpoint: HealthTarget): PlannedProbe[] {
  if (endpoint.presentations.length > 0) return endpoint.presentations.map((p) => ({ target: p.name, kind: p.type, port: p.port }));
  const first = endpoint.ports[0];
  return first === undefined ? [] : [{ target: `port-${first}`, kind: 'tcp', port: first }];
}

/**
 * The most abort listeners checking `endpoints` at once puts on the signal it is given: one per probe in
 * flight (in line for a slot, then under its deadline), or one for the readiness check after them.
 */
export const abortListenersOf = (endpoints: readonly HealthTarget[]): number =>
  endpoints.reduce((sum, endpoint) => sum + Math.max(1, plannedProbes(endpoint).length), 0);

const credentials = (endpoint: HealthTarget): SshCredentials => ({ username: endpoint.sshUser, password: endpoint.sshPassword });

/** The ssh probe whose logged-in connection can run the readiness command too: an ssh check on that probe's port. */
function sshProbeForReadiness(endpoint: HealthTarget, probes: PlannedProbe[]): { probe: PlannedProbe; command: string } | undefined {
  const check = endpoint.readiness;
  if (check?.type !== 'ssh') return undefined;
  const port = readinessPort(check, endpoint);
  const probe = probes.find((p) => p.kind === 'ssh' && p.port === port);
  return probe && { probe, command: check.command };
}

/**
 * Runs an endpoint's probes concurrently, then (once every probe reached it) its readiness check if its
 * image declares one; every probe and check through the one global concurrency limit, with the same timeout.
 * An ssh readiness check on the port of an ssh probe runs on that probe's connection, after its login (one
 * connection, one slot); its answer counts only if the endpoint turns out reachable.
 */
export class ProbeRunner {
  readonly limiter: Semaphore;

  constructor(
    private readonly settings: ProbeSettings,
    private readonly fetchers: ReadinessFetchers = SOCKET_FETCHERS,
  ) {
    this.limiter = new Semaphore(settings.maxConcurrentProbes);
  }

  /** The bound of one probe. */
  get timeoutMs(): number {
    return this.settings.probeTimeoutMs;
  }

  async check(endpoint: HealthTarget, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<EndpointHealth> {
    const startedAt = Date.now();
    const probes = plannedProbes(endpoint);
    if (probes.length === 0) {
      return { name: endpoint.name, host: endpoint.host, reachable: false, latencyMs: 0, probes: [], error: 'Endpoint has no Ports' };
    }
    const timeoutMs = options.timeoutMs ?? this.settings.probeTimeoutMs;
    const shared = sshProbeForReadiness(endpoint, probes);
    let answer: FetchOutcome | undefined;
    const probeAndAsk = async (target: ProbeTarget, command: string): Promise<ProbeOutcome> => {
      const both = await sshProbeWithCommand(target, credentials(endpoint), command);
      answer = both.answer;
      return both.outcome;
    };
    const results = await Promise.all(
      probes.map(async (probe): Promise<ProbeResult> => {
        const target: ProbeTarget = { host: endpoint.host, port: probe.port, timeoutMs, signal: options.signal };
        const run = (): Promise<ProbeOutcome> => (probe === shared?.probe ? probeAndAsk(target, shared.command) : this.probe(probe.kind, target, endpoint));
        const outcome = await this.limiter.run(run, options.signal).catch((error: unknown): ProbeOutcome => ({
          verdict: 'timeout',
          reachable: false,
          latencyMs: Date.now() - startedAt,
          error: `not probed: ${error instanceof Error ? error.message : String(error)}`,
        }));
        return { target: probe.target, kind: probe.kind, port: probe.port, ...outcome };
      }),
    );
    const reachable = results.every((r) => r.reachable);
    const readiness = endpoint.readiness ? { readiness: await this.readiness(endpoint, reachable, timeoutMs, options.signal, answer) } : {};
    return { name: endpoint.name, host: endpoint.host, reachable, latencyMs: Date.now() - startedAt, probes: results, ...readiness };
  }

  /**
   * The readiness check, run only once the endpoint is reachable (before that, it is not ready by definition);
   * judged on `answer` when the probe's connection already fetched it.
   */
  private async readiness(
    endpoint: HealthTarget,
    reachable: boolean,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    answer: FetchOutcome | undefined,
  ): Promise<ReadinessResult> {
    const check = endpoint.readiness!;
    if (!reachable) return { check: describeCheck(check), ready: false, detail: 'not checked: not reachable yet' };
    const options = { timeoutMs, signal, matchLimitMs: this.settings.readinessMatchTimeoutMs };
    if (answer) return evaluateReadiness(check, endpoint, options, { ...this.fetchers, sshCommand: () => Promise.resolve(answer) });
    return this.limiter
      .run(() => evaluateReadiness(check, endpoint, options, this.fetchers), signal)
      .catch((error: unknown): ReadinessResult => ({
        check: describeCheck(check),
        ready: false,
        detail: `not checked: ${error instanceof Error ? error.message : String(error)}`,
      }));
  }

  private probe(kind: ProbeKind, target: ProbeTarget, endpoint: HealthTarget): Promise<ProbeOutcome> {
    switch (kind) {
      case 'ssh':
        return sshProbe(target, credentials(endpoint));
      case 'http':
        return httpProbe(target, this.settings.httpHealthyBelow);
      case 'tcp':
        return tcpProbe(target);
    }
  }
}
