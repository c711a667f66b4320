// The worker thread of `readCurriculumIsolated`: one read, its result posted back, then exit.
import { parentPort, workerData } from 'node:worker_threads';
import { readCurriculum, type ReadOptions } from './curriculum.reader.js';

const { dir, options } = workerData as { dir: string; options: ReadOptions };
parentPort?.postMessage(await readCurriculum(dir, options));
