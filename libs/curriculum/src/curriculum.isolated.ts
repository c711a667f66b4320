import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { DEFAULT_CURRICULUM_LIMITS } from '@antidote/config';
import { readCurriculum, type ReadOptions, type ReadResult } from './curriculum.reader.js';

/** Beyond `limits.seconds` (which the read checks between files), how long a stuck worker gets before it is stopped. */
const GRACE_SECONDS = 5;

/**
 * `readCurriculum` in a worker thread: the caller's event loop stays free (the api keeps answering
 * `/healthz` during an import), the worker's heap is capped at `limits.memoryMb`, and a read still
 * running `limits.seconds` + 5 s after its worker started is stopped. Each of those ends is one problem naming
 * the limit, never a crash. `signal` stops the read (the api shutting down).
 *
 * The worker runs the compiled `curriculum.worker.js` next to this module (or, when this module runs
 * from TypeScript source in tests, the library's built one); without either, the read runs in-process.
 */
export async function readCurriculumIsolated(dir: string, options: ReadOptions, signal?: AbortSignal): Promise<ReadResult> {
  const limits = { ...DEFAULT_CURRICULUM_LIMITS, ...options.limits };
  const script = workerScript();
  if (!script) return readCurriculum(dir, { ...options, limits });
  const worker = new Worker(script, {
    workerData: { dir, options: { ...options, limits } },
    resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb },
  });
  const stopped = (message: string): ReadResult => ({
    problems: [{ file: '.', rule: 'limit', message }],
    warnings: [],
    counts: { collections: 0, images: 0, lessons: 0, skippedCollections: 0, skippedLessons: 0 },
  });
  let timer: NodeJS.Timeout | undefined;
  let onAbort = (): void => undefined;
  try {
    return await new Promise<ReadResult>((resolve, reject) => {
      const limit = `reading the curriculum took longer than ${limits.seconds} s; the limit is ${limits.seconds} s`;
      // Counted from the worker's start, so that loading its modules on a busy machine is not held against the read.
      worker.once('online', () => (timer = setTimeout(() => resolve(stopped(limit)), (limits.seconds + GRACE_SECONDS) * 1000)));
      onAbort = () => resolve(stopped('the read was stopped: the process is shutting down'));
      if (signal?.aborted) onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.once('message', (result: ReadResult) => resolve(result));
      worker.once('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ERR_WORKER_OUT_OF_MEMORY') return reject(error);
        resolve(stopped(`reading the curriculum needed more than ${limits.memoryMb} MB of memory; the limit is ${limits.memoryMb} MB`));
      });
      worker.once('exit', (code) => reject(new Error(`the curriculum reader stopped (exit code ${code}) without a result`)));
    });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    await worker.terminate();
  }
}

/** The compiled worker: beside this module, or the library's build output when this runs from source. */
function workerScript(): URL | undefined {
  return ['./curriculum.worker.js', '../dist/curriculum.worker.js'].map((path) => new URL(path, import.meta.url)).find((url) => existsSync(url));
}
