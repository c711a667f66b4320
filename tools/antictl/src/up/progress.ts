import type { Output } from '../output.js';

const FIRST_NOTE_MS = 2000;
const NOTE_EVERY_MS = 10_000;

/**
 * Shows that `label` is still under way while `work` runs: a ticking line on a terminal (cleared when
 * done), otherwise a line after 2 s and every 10 s after that. The step's own result line follows.
 */
export async function withProgress<T>(out: Output, label: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  let nextNote = FIRST_NOTE_MS;
  const tick = setInterval(() => {
    const elapsed = Date.now() - started;
    if (out.interactive) out.progress(`  ${label}… ${Math.floor(elapsed / 1000)} s`);
    else if (elapsed >= nextNote) {
      out.line(`  ${label}… ${Math.floor(elapsed / 1000)} s`);
      nextNote += nextNote === FIRST_NOTE_MS ? NOTE_EVERY_MS - FIRST_NOTE_MS : NOTE_EVERY_MS;
    }
  }, 500);
  try {
    return await work();
  } finally {
    clearInterval(tick);
    if (out.interactive) out.progress('');
  }
}
