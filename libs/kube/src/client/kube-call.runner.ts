import { Observable, type ConfigurationOptions, type RequestContext, type ResponseContext } from '@kubernetes/client-node';
import { dispatcherHttpLibrary } from './dispatcher-http.library.js';
import { KubeApiError, NO_RESPONSE, toKubeApiError, type KubeCallTarget, type KubeVerb } from './kube-api.error.js';
import { silentLogger, type KubeLogger } from './kube-logger.js';
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
  /** Sent as the User-Agent of every call (client-node's own is replaced): which app calls. */
  userAgent?: string;
  logger?: KubeLogger;
  sleep?: Sleep;
  random?: () => number;
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

  async run<T>(target: KubeCallTarget, operation: (options: ConfigurationOptions) => Promise<T>, callOptions: CallOptions = {}): Promise<T> {
    const { signal } = callOptions;
    const firstAttempt = performance.now();
    const exhausted = (attempt: number) => attempt >= this.options.retries && performance.now() - firstAttempt >= (this.options.retryForMs ?? 0);
    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      let status = NO_RESPONSE;
      try {
        signal?.throwIfAborted();
        const attemptSignal = signal ? AbortSignal.any([signal, AbortSignal.timeout(this.options.timeoutMs)]) : AbortSignal.timeout(this.options.timeoutMs);
        const result = await operation(requestOptions(attemptSignal, this.options.userAgent, (code) => (status = code)));
        this.observe(target, status, started, attempt);
        return result;
      } catch (thrown) {
        const error = signal?.aborted
          ? new KubeApiError(target, { code: NO_RESPONSE, reason: 'Aborted', message: 'the call was cancelled', cause: thrown })
          : toKubeApiError(thrown, target);
        this.observe(target, error.code || status, started, attempt);
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

/** Per-call client-node options: our abort signal and User-Agent on the request, the HTTP status reported back, sent without fetch. */
function requestOptions(signal: AbortSignal, userAgent: string | undefined, onStatus: (code: number) => void): ConfigurationOptions {
  return {
    httpApi: dispatcherHttpLibrary,
    middleware: [
      {
        pre: (context: RequestContext) => {
          context.setSignal(signal);
          if (userAgent) context.setHeaderParam('User-Agent', userAgent);
          return new Observable(Promise.resolve(context));
        },
        post: (context: ResponseContext) => {
          onStatus(context.httpStatusCode);
          return new Observable(Promise.resolve(context));
        },
      },
    ],
    middlewareMergeStrategy: 'append',
  };
}
