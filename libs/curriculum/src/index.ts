export * from './curriculum.model.js';
export { readCurriculum } from './curriculum.reader.js';
export type { CurriculumCounts, ReadOptions, ReadResult } from './curriculum.reader.js';
export { formatProblem } from './problem.js';
export type { Problem, Warning } from './problem.js';
export { configFileMatches, NAPALM_DRIVERS } from './rules/lesson.rules.js';
export { includedAt } from './tier.js';
export { readCurriculumIsolated } from './curriculum.isolated.js';
export { realPathInside, UnsafePathError } from './safe-fs.js';
