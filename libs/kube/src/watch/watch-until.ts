import { silentLogger, type KubeLogger } from '../client/kube-logger.js';
import { ResilientWatch } from './resilient-watch.js';
import type { HasMetadata, WatchSource } from './watch-source.js';

/** What a waiter decides from the current state: keep waiting, done, or failed (with the reason). */
export type WaitVerdict<R> = { state: 'waiting'; progress?: string } | { state: 'done'; value: R } | { state: 'failed'; error: Error };

export class WaitTimeoutError extends Error {
  override readonly name = 'WaitTimeoutError';
}

export interface WatchUntilOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  logger?: KubeLogger;
  /** For the timeout message: "pods Running in ns". */
  what: string;
}

/**
 * Keeps the watched collection as a name → object map and resolves once `evaluate` says done, rejects
 * once it says failed or the timeout passes (the message says what was still missing). The watch
 * survives dropped connections and 410s (ResilientWatch); nothing outlives the wait.
 */
export async function watchUntil<T extends HasMetadata, R>(
  source: WatchSource<T>,
  evaluate: (objects: ReadonlyMap<string, T>) => WaitVerdict<R>,
  options: WatchUntilOptions,
): Promise<R> {
  const objects = new Map<string, T>();
  const controller = new AbortController();
  const outer = options.signal;
  let settle: (verdict: WaitVerdict<R>) => void = () => undefined;
  const verdict = new Promise<WaitVerdict<R>>((resolve) => (settle = resolve));
  let lastProgress: string | undefined;
  const check = (): void => {
    const current = evaluate(objects);
    if (current.state === 'waiting') lastProgress = current.progress;
    else settle(current);
  };
  const watch = new ResilientWatch<T>(
    source,
    {
      onSync: (items) => {
        objects.clear();
        for (const item of items) objects.set(item.metadata?.name ?? '', item);
        check();
      },
      onChange: (type, item) => {
        if (type === 'DELETED') objects.delete(item.metadata?.name ?? '');
        else objects.set(item.metadata?.name ?? '', item);
        check();
      },
    },
    { logger: options.logger ?? silentLogger },
  );
  const timer = setTimeout(
    () =>
      settle({
        state: 'failed',
        error: new WaitTimeoutError(
          `timed out after ${Math.round(options.timeoutMs / 1000)} s waiting for ${options.what}${lastProgress ? ` (${lastProgress})` : ''}`,
        ),
      }),
    options.timeoutMs,
  );
  const onAbort = (): void => settle({ state: 'failed', error: new Error(`cancelled while waiting for ${options.what}`, { cause: outer?.reason }) });
  outer?.addEventListener('abort', onAbort, { once: true });
  if (outer?.aborted) onAbort();
  const running = watch.run(controller.signal).then(
    () => undefined,
    (error: unknown) => settle({ state: 'failed', error: error instanceof Error ? error : new Error(String(error)) }),
  );
  try {
    const result = await verdict;
    if (result.state === 'failed') throw result.error;
    return (result as { value: R }).value;
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onAbort);
    controller.abort();
    await running;
  }
}
