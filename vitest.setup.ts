import { vi } from 'vitest';

// `vi.waitFor` gives up after 1 s unless told otherwise: too short a ceiling for a condition on a loaded CI
// machine. A ceiling costs nothing when the condition holds (the wait returns at once), so every wait that
// names no timeout of its own gets the same one as `expect.poll` (vitest.shared.ts).
export const DEFAULT_WAIT_TIMEOUT_MS = 60_000;
const WRAPPED = Symbol.for('antidote.waitFor.ceiling');
// Once per worker: with `isolate: false` (the unit tier) this file runs again for every test file.
if (!(WRAPPED in vi.waitFor)) {
  const waitFor = vi.waitFor.bind(vi);
  vi.waitFor = Object.assign(
    ((callback, options) =>
      waitFor(
        callback,
        typeof options === 'number' ? options : { interval: 20, ...options, timeout: options?.timeout ?? DEFAULT_WAIT_TIMEOUT_MS },
      )) as typeof vi.waitFor,
    { [WRAPPED]: true },
  );
}
