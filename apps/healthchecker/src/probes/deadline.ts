/**
 * One deadline for a whole probe: `run` gets a settle function and a cleanup registry; whichever comes
 * first — the probe settling, the deadline, or the abort signal — settles once, and every registered
 * cleanup (socket destroy, timer clear) runs. Nothing outlives the probe.
 */
export function withDeadline<T>(
  timeoutMs: number,
  onTimeout: () => T,
  signal: AbortSignal | undefined,
  run: (settle: (value: T) => void, onCleanup: (cleanup: () => void) => void) => void,
): Promise<T> {
  return new Promise<T>((resolve) => {
    const cleanups: (() => void)[] = [];
    let settled = false;
    const settle = (value: T): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
      for (const cleanup of cleanups) {
        try {
          cleanup();
        } catch {
          // cleanup must never throw out of a probe
        }
      }
      resolve(value);
    };
    const timer = setTimeout(() => settle(onTimeout()), timeoutMs);
    const abort = (): void => settle(onTimeout());
    if (signal?.aborted) return settle(onTimeout());
    signal?.addEventListener('abort', abort, { once: true });
    try {
      run(settle, (cleanup) => (settled ? cleanup() : cleanups.push(cleanup)));
    } catch {
      settle(onTimeout());
    }
  });
}
