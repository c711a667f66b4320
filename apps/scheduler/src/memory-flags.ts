import { setFlagsFromString } from 'node:v8';

/**
 * V8 sized for memory rather than speed (`--optimize-for-size`), set as the scheduler starts (node
 * refuses the flag in NODE_OPTIONS, and the images and `antictl up` start every app alike): after each
 * full collection V8 lets the old generation grow by 1.3× what is live instead of up to 4×. A burst of
 * lessons allocates fast and keeps little (each operation's plan, objects and replies), so V8 let garbage
 * pile up to several times the live heap before collecting it, and kept the pages: 500 lessons asked for
 * at once peaked at 240 MiB RSS, 131 MiB with the flag, for ~10 % more CPU per lesson
 * (`src/scheduler-memory.bench.spec.ts`, docs/performance.md). `node --no-optimize-for-size` keeps V8's default.
 */
if (!process.execArgv.includes('--no-optimize-for-size')) setFlagsFromString('--optimize-for-size');
