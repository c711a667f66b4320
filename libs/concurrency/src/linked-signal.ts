/** A signal that aborts when any of its sources does: see `linkedSignal`. */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** Stops listening to the sources: call when the work is done. Idempotent. */
  readonly dispose: () => void;
}

/** The signals linked to a source, and the one abort listener they share on it. */
interface Followers {
  readonly onAbort: () => void;
  readonly set: Set<() => void>;
}

const followersOf = new WeakMap<AbortSignal, Followers>();

/** Calls `onAbort` when `source` aborts, until the returned function is called. */
function follow(source: AbortSignal, onAbort: () => void): () => void {
  let followers = followersOf.get(source);
  if (!followers) {
    const set = new Set<() => void>();
    followers = { set, onAbort: () => [...set].forEach((follower) => follower()) };
    followersOf.set(source, followers);
    source.addEventListener('abort', followers.onAbort, { once: true });
  }
  const { set } = followers;
  set.add(onAbort);
  return () => {
    if (!set.delete(onAbort) || set.size > 0) return;
    source.removeEventListener('abort', followers.onAbort);
    followersOf.delete(source);
  };
}

/**
 * A signal that aborts (with its reason) when the first of `sources` does. Unlike `AbortSignal.any` it
 * leaves nothing behind once disposed: on Node 20 a signal made by `AbortSignal.any` that still has an
 * abort listener is kept alive by node itself until a source aborts — with every listener a finished
 * operation forgot on it, and all they hold. However many signals are linked to one source (a service's
 * shutdown signal shared by every operation in flight), the source holds one abort listener for them all,
 * so it never reaches node's listener limit and its listeners are not scanned per link.
 */
export function linkedSignal(sources: readonly AbortSignal[]): LinkedSignal {
  const controller = new AbortController();
  const already = sources.find((source) => source.aborted);
  if (already) {
    controller.abort(already.reason);
    return { signal: controller.signal, dispose: () => undefined };
  }
  const unfollow = sources.map((source) =>
    follow(source, () => {
      dispose();
      controller.abort(source.reason);
    }),
  );
  const dispose = (): void => unfollow.forEach((stop) => stop());
  return { signal: controller.signal, dispose };
}
