/** A signal that aborts when any of its sources does: see `linkedSignal`. */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** Stops listening to the sources: call when the work is done. Idempotent. */
  readonly dispose: () => void;
}

/**
 * A signal that aborts (with its reason) when the first of `sources` does. Unlike `AbortSignal.any` it
 * leaves nothing behind once disposed: on Node 20 a signal made by `AbortSignal.any` that still has an
 * abort listener is kept alive by node itself until a source aborts — with every listener a finished
 * operation forgot on it, and all they hold.
 */
export function linkedSignal(sources: readonly AbortSignal[]): LinkedSignal {
  const controller = new AbortController();
  const already = sources.find((source) => source.aborted);
  if (already) {
    controller.abort(already.reason);
    return { signal: controller.signal, dispose: () => undefined };
  }
  const listeners = sources.map((source) => {
    const onAbort = (): void => {
      dispose();
      controller.abort(source.reason);
    };
    source.addEventListener('abort', onAbort, { once: true });
    return { source, onAbort };
  });
  const dispose = (): void => {
    for (const { source, onAbort } of listeners) source.removeEventListener('abort', onAbort);
  };
  return { signal: controller.signal, dispose };
}
