import { KubeApiError } from '../client/kube-api.error.js';
import { silentLogger, type KubeLogger } from '../client/kube-logger.js';
import { abortableSleep, fullJitterDelay, type BackoffPolicy, type Sleep } from '../client/retry.js';
import type { HasMetadata, WatchChangeType, WatchSource } from './watch-source.js';

export interface WatchHandlers<T> {
  /** The full state: after the first list, and after every re-list (410 Gone). Replace, don't merge. */
  onSync(items: T[]): void;
  onChange(type: WatchChangeType, object: T): void;
}

export interface ResilientWatchOptions {
  logger?: KubeLogger;
  /** Restart delays after failures (capped exponential, full jitter). */
  backoff?: BackoffPolicy;
  /** A connection that ends sooner than this having delivered nothing counts as a failure (backoff). */
  minHealthyMs?: number;
  sleep?: Sleep;
  random?: () => number;
  now?: () => number;
}

export const WATCH_BACKOFF: BackoffPolicy = { baseMs: 250, maxMs: 15_000 };

/** 4xx that no retry can fix (bad selector, no permission, unknown resource): surfaced, not looped on. */
const isFatal = (error: KubeApiError): boolean => error.code >= 400 && error.code < 500 && ![408, 410, 429].includes(error.code);

/** A handler threw: a bug in the consumer, never retried. */
class HandlerError extends Error {}

class WatchEventError extends Error {}

interface StatusLike {
  code?: number;
  reason?: string;
  message?: string;
}

/**
 * List, then watch from the list's resourceVersion; when the connection drops, resume from the last
 * resourceVersion seen (events and bookmarks); on 410 Gone re-list and hand the consumer the full state
 * again; on errors restart with capped exponential backoff. Every restart is logged. It ends only when
 * `signal` aborts (resolves) or on a fatal error or a handler exception (rejects) — never silently.
 */
export class ResilientWatch<T extends HasMetadata> {
  private readonly logger: KubeLogger;
  private readonly backoff: BackoffPolicy;
  private readonly minHealthyMs: number;
  private readonly sleep: Sleep;
  private readonly random: () => number;
  private readonly now: () => number;
  /** Restarts so far (for tests and logs). */
  restarts = 0;
  relists = 0;

  constructor(
    private readonly source: WatchSource<T>,
    private readonly handlers: WatchHandlers<T>,
    options: ResilientWatchOptions = {},
  ) {
    this.logger = options.logger ?? silentLogger;
    this.backoff = options.backoff ?? WATCH_BACKOFF;
    this.minHealthyMs = options.minHealthyMs ?? 1000;
    this.sleep = options.sleep ?? abortableSleep;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
  }

  async run(signal: AbortSignal): Promise<void> {
    let resourceVersion: string | undefined;
    let failures = 0;
    while (!signal.aborted) {
      let delivered = 0;
      const started = this.now();
      try {
        if (resourceVersion === undefined) {
          const snapshot = await this.source.list(signal);
          this.call(() => this.handlers.onSync(snapshot.items));
          resourceVersion = snapshot.resourceVersion;
          failures = 0;
        }
        await this.source.watch(
          resourceVersion,
          (type, object) => {
            delivered++;
            resourceVersion = this.handle(type, object) ?? resourceVersion;
          },
          signal,
        );
        if (signal.aborted) return;
        if (delivered > 0 || this.now() - started >= this.minHealthyMs) {
          failures = 0;
          this.restarts++;
          this.logger.debug({ watch: this.source.description, resourceVersion }, 'watch ended, resuming');
          continue;
        }
        failures++;
        await this.pause(failures, signal, { reason: 'closed at once' });
      } catch (thrown) {
        if (signal.aborted) return;
        if (thrown instanceof HandlerError) throw thrown.cause;
        const error = thrown instanceof KubeApiError ? thrown : this.asError(thrown);
        if (error.code === 410) {
          this.relists++;
          this.logger.info({ watch: this.source.description, resourceVersion }, 'watch resourceVersion expired (410), re-listing');
          resourceVersion = undefined;
          continue;
        }
        if (isFatal(error)) {
          this.logger.error({ watch: this.source.description, code: error.code, reason: error.reason }, 'watch failed for good');
          throw error;
        }
        if (delivered > 0) failures = 0;
        failures++;
        await this.pause(failures, signal, { code: error.code, reason: error.reason, error: error.message });
      }
    }
  }

  /** Applies one event; returns its resourceVersion. */
  private handle(type: string, object: unknown): string | undefined {
    if (type === 'ERROR') {
      const status = (object ?? {}) as StatusLike;
      throw new WatchEventError(JSON.stringify(status), { cause: status });
    }
    const item = object as T;
    const version = item.metadata?.resourceVersion;
    if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') this.call(() => this.handlers.onChange(type, item));
    return version;
  }

  private call(handler: () => void): void {
    try {
      handler();
    } catch (error) {
      throw new HandlerError('watch handler failed', { cause: error });
    }
  }

  private asError(thrown: unknown): KubeApiError {
    const status = thrown instanceof WatchEventError ? (thrown.cause as StatusLike) : undefined;
    return new KubeApiError(
      { verb: 'watch', resource: this.source.description },
      {
        code: typeof status?.code === 'number' ? status.code : 500,
        reason: status?.reason ?? 'WatchError',
        message: status?.message ?? (thrown instanceof Error ? thrown.message : String(thrown)),
        cause: thrown,
      },
    );
  }

  private async pause(failures: number, signal: AbortSignal, fields: object): Promise<void> {
    const delayMs = fullJitterDelay(failures - 1, this.backoff, this.random);
    this.restarts++;
    this.logger.warn({ watch: this.source.description, failures, delayMs, ...fields }, 'watch failed, restarting after backoff');
    await this.sleep(delayMs, signal).catch(() => undefined);
  }
}
