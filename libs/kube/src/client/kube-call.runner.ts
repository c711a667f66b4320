import { KubeApiError, NO_RESPONSE, toKubeApiError, type KubeCallTarget, type KubeVerb } from './kube-api.error.js';
import { silentLogger, type KubeLogger } from './kube-logger.js';
import type { KubeReply } from './kube-http.js';
import { abortableSleep, DEFAULT_BACKOFF, isRetryable, retryDelay, type BackoffPolicy, type Sleep } from './retry.js';

/** One HTTP attempt, for metrics (count calls by verb/resource/code). `code` 0 = no response. */
export interface KubeCallEvent {
  verb: KubeVerb;
  resource: string;
  namespace?: string;
  code: number;
  durationMs: number;
  /** 0 for the first attempt. */
  attempt: number;
}

export interface KubeCallRunnerOptions {
  /** Per attempt (`timeouts.kubeRequestSeconds`). */
  timeoutMs: number;
  /** Extra attempts after the first for retryable failures (`scheduler.kubeRetries`). */
  retries: number;
  /** Beyond `retries`, keep retrying until this long after the first attempt (`scheduler.kubeRetrySeconds`). */
  retryForMs?: number;
  backoff?: BackoffPolicy;
  onCall?: (event: KubeCallEvent) => void;
  logger?: KubeLogger;
  sleep?: Sleep;
  random?: () => number;
}

/**
 * What one attempt is given: the caller's signal and the attempt's time limit, for the HTTP layer to
 * apply (`KubeRequest.signal`, `KubeRequest.timeoutMs`: one timer, no AbortController per attempt).
 */
export interface AttemptLimits {
  signal?: AbortSignal;
  timeoutMs: number;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** A create with a deterministic name whose 409 the caller adopts: safe to repeat after an ambiguous failure. */
  createIsSafe?: boolean;
}

/**
 * Runs every Kubernetes call: a timeout per attempt, retries with capped exponential backoff and full
 * jitter on 429 (honouring Retry-After), 5xx and no response — bounded by a count and a time budget, and
 * for non-idempotent verbs only when the caller says it is safe — the observer hook per attempt, and
 * errors as `KubeApiError`.
 */
export class KubeCallRunner {
  private readonly backoff: BackoffPolicy;
  private readonly logger: KubeLogger;
  private readonly sleep: Sleep;
  private readonly random: () => number;

  constructor(private readonly options: KubeCallRunnerOptions) {
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.logger = options.logger ?? silentLogger;
    this.sleep = options.sleep ?? abortableSleep;
    this.random = options.random ?? Math.random;
  }

  /**
   * Runs `operation` (one HTTP attempt, given the caller's signal and the attempt's timeout) until it
   * answers 2xx or may not be retried.
   */
  async run(target: KubeCallTarget, operation: (attempt: AttemptLimits) => Promise<KubeReply>, callOptions: CallOptions = {}): Promise<KubeReply> {
    const { signal } = callOptions;
    const limits: AttemptLimits = signal ? { signal, timeoutMs: this.options.timeoutMs } : { timeoutMs: this.options.timeoutMs };
    const firstAttempt = performance.now();
    const exhausted = (attempt: number) => attempt >= this.options.retries && performance.now() - firstAttempt >= (this.options.retryForMs ?? 0);
    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      try {
        signal?.throwIfAborted();
        const reply = await operation(limits);
        this.observe(target, reply.status, started, attempt);
        return reply;
      } catch (thrown) {
        const error = signal?.aborted
          ? new KubeApiError(target, { code: NO_RESPONSE, reason: 'Aborted', message: 'the call was cancelled', cause: thrown })
          : toKubeApiError(thrown, target);
        this.observe(target, error.code, started, attempt);
        if (exhausted(attempt) || !isRetryable(error, target.verb, callOptions.createIsSafe ?? false)) throw error;
        const delayMs = retryDelay(error, attempt, this.backoff, this.random);
        this.logger.warn({ ...target, code: error.code, reason: error.reason, attempt: attempt + 1, delayMs }, 'Kubernetes call failed, retrying');
        await this.sleep(delayMs, signal).catch((reason: unknown) => {
          throw new KubeApiError(target, { code: NO_RESPONSE, reason: 'Aborted', message: 'the call was cancelled while waiting to retry', cause: reason });
        });
      }
    }
  }

  private observe(target: KubeCallTarget, code: number, started: number, attempt: number): void {
    if (!this.options.onCall) return;
    try {
      this.options.onCall({
        verb: target.verb,
        resource: target.resource,
        ...(target.namespace ? { namespace: target.namespace } : {}),
        code,
        durationMs: performance.now() - started,
        attempt,
      });
    } catch (error) {
      this.logger.warn({ error: String(error) }, 'Kubernetes call observer failed');
    }
  }
}
