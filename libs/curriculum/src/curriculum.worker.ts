// The child process of `readCurriculumIsolated`: says it is ready, reads the one curriculum it is sent, sends the result back, exits.
import { readCurriculum, type ReadOptions, type ReadResult } from './curriculum.reader.js';

/** What the reader sends its parent: first `ready` (its modules loaded), then the result. */
export type ReaderMessage = { kind: 'ready' } | { kind: 'result'; result: ReadResult };

const send = (message: ReaderMessage): Promise<void> => new Promise((resolve) => process.send?.(message, () => resolve()));

async function readAndSend({ dir, options }: { dir: string; options: ReadOptions }): Promise<void> {
  await send({ kind: 'result', result: await readCurriculum(dir, options) });
  process.exit(0);
}

if (process.send) {
  // The parent gone (its end of the channel closed): nothing to read for.
  process.once('disconnect', () => process.exit(0));
  process.once('message', (input: { dir: string; options: ReadOptions }) => void readAndSend(input));
  void send({ kind: 'ready' });
}
