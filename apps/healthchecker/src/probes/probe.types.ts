import type { ProbeKind, ProbeVerdict } from '@antidote/contracts';

export interface ProbeTarget {
  host: string;
  port: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface ProbeOutcome {
  verdict: ProbeVerdict;
  /** Reachable covers `credentials-rejected`: the endpoint is up, its login refused. */
  reachable: boolean;
  latencyMs: number;
  error?: string;
  httpStatus?: number;
}

export type Probe = (target: ProbeTarget) => Promise<ProbeOutcome>;

export interface ProbeKindOptions {
  kind: ProbeKind;
  sshUser?: string;
  sshPassword?: string;
  httpHealthyBelow: number;
}

const NETWORK_ERRORS: Record<string, ProbeOutcome['verdict']> = {
  ECONNREFUSED: 'refused',
  ECONNRESET: 'unreachable',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  EADDRNOTAVAIL: 'unreachable',
  ETIMEDOUT: 'timeout',
};

/** A socket-level failure as a verdict. */
export function failure(error: unknown, startedAt: number): ProbeOutcome {
  const code = (error as { code?: string }).code ?? '';
  const message = error instanceof Error ? error.message : String(error);
  return { verdict: NETWORK_ERRORS[code] ?? 'unreachable', reachable: false, latencyMs: Date.now() - startedAt, error: message };
}

export const timedOut = (startedAt: number, timeoutMs: number, what: string): ProbeOutcome => ({
  verdict: 'timeout',
  reachable: false,
  latencyMs: Date.now() - startedAt,
  error: `no ${what} within ${timeoutMs} ms`,
});
