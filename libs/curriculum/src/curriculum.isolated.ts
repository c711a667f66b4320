import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CURRICULUM_LIMITS } from '@antidote/config';
import { readCurriculum, type ReadOptions, type ReadResult } from './curriculum.reader.js';
import type { ReaderMessage } from './curriculum.worker.js';

/** Beyond `limits.seconds` (which the read checks between files), how long a stuck reader gets before it is stopped. */
const GRACE_SECONDS = 5;
/** How much of the reader's stderr is kept to tell why it ended (V8's out-of-memory report is a few lines). */
const STDERR_TAIL = 4096;

/**
 * `readCurriculum` in a child process: the caller's event loop stays free (the api keeps answering
 * `/healthz` during an import), the reader's heap is capped at `limits.memoryMb`, and a read still
 * running `limits.seconds` + 5 s after the reader was ready is stopped. Each of those ends is one problem naming
 * the limit, never a crash. `signal` stops the read (the api shutting down). A process, not a worker
 * thread: everything the read allocated goes back to the system when it exits (a worker thread left
 * ~4–7 MiB in the caller's resident memory for good).
 *
 * The reader runs the compiled `curriculum.worker.js` next to this module (or, when this module runs
 * from TypeScript source in tests, the library's built one); without either, the read runs in-process.
 */
export async function readCurriculumIsolated(dir: string, options: ReadOptions, signal?: AbortSignal): Promise<ReadResult> {
  const limits = { ...DEFAULT_CURRICULUM_LIMITS, ...options.limits };
  const script = readerScript();
  if (!script) return readCurriculum(dir, { ...options, limits });
  const reader = fork(script, [], {
    execArgv: [...process.execArgv, `--max-old-space-size=${limits.memoryMb}`],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  reader.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL)));
  let timer: NodeJS.Timeout | undefined;
  let onAbort = (): void => undefined;
  try {
    return await new Promise<ReadResult>((resolve, reject) => {
      const limit = `reading the curriculum took longer than ${limits.seconds} s; the limit is ${limits.seconds} s`;
      onAbort = () => resolve(stopped('the read was stopped: the process is shutting down'));
      if (signal?.aborted) onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      reader.on('message', (message: ReaderMessage) => {
        if (message.kind === 'result') return resolve(message.result);
        // Counted from the reader's start, so that loading its modules on a busy machine is not held against the read.
        timer = setTimeout(() => resolve(stopped(limit)), (limits.seconds + GRACE_SECONDS) * 1000);
        reader.send({ dir, options: { ...options, limits } });
      });
      reader.once('error', reject);
      reader.once('close', (code, exitSignal) => {
        if (/out of memory|heap limit|javascript OOM/i.test(stderr)) {
          return resolve(stopped(`reading the curriculum needed more than ${limits.memoryMb} MB of memory; the limit is ${limits.memoryMb} MB`));
        }
        reject(
          new Error(
            `the curriculum reader stopped (${exitSignal ?? `exit code ${code}`}) without a result${stderr.trim() ? `: ${stderr.trim().split('\n').slice(-3).join(' ')}` : ''}`,
          ),
        );
      });
    });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    end(reader);
  }
}

const stopped = (message: string): ReadResult => ({
  problems: [{ file: '.', rule: 'limit', message }],
  warnings: [],
  counts: { collections: 0, images: 0, lessons: 0, skippedCollections: 0, skippedLessons: 0 },
});

/** Stops the reader if it still runs (a read past its limit, or the caller shutting down). */
function end(reader: ChildProcess): void {
  if (reader.exitCode === null && reader.signalCode === null) reader.kill('SIGKILL');
}

/** The compiled reader: beside this module, or the library's build output when this runs from source. */
function readerScript(): string | undefined {
  return ['./curriculum.worker.js', '../dist/curriculum.worker.js']
    .map((path) => fileURLToPath(new URL(path, import.meta.url)))
    .find((path) => existsSync(path));
}
