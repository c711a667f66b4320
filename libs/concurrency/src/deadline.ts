/** One piece of work's abort signal: see `deadline`. */
export interface Deadline {
  readonly signal: AbortSignal;
  /** Clears the timer and stops listening to the parent: call when the work is done. Idempotent. */
  readonly dispose: () => void;
}

/**
 * A signal that aborts when `parent` does (with its reason) or when `ms` have passed (with a
 * `TimeoutError`, as `AbortSignal.timeout` does), whichever comes first. Unlike
 * `AbortSignal.any([parent, AbortSignal.timeout(ms)])` it leaves nothing behind once disposed — that one
 * keeps its timer and a dependent signal alive for the whole `ms` after the work is done, and costs
 * about three times the CPU (Node 20), which adds up over a call per Kubernetes object.
 */
export function deadline(ms: number, parent?: AbortSignal): Deadline {
  const controller = new AbortController();
  if (parent?.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, dispose: () => undefined };
  }
  const onParentAbort = () => {
    clearTimeout(timer);
    controller.abort(parent?.reason);
  };
  const timer = setTimeout(() => {
    parent?.removeEventListener('abort', onParentAbort);
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, ms);
  timer.unref();
  parent?.addEventListener('abort', onParentAbort, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParentAbort);
    },
  };
}
