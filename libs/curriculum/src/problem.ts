/** One thing wrong with a curriculum: where (file relative to the curriculum root, field path) and what. */
export interface Problem {
  file: string;
  field?: string;
  message: string;
  /** Which rule found it (schema, duplicate-endpoints, config-file, …). */
  rule: string;
}

/** Something odd that does not stop an import (unknown keys, names that will be shortened). */
export type Warning = Problem;

export class ProblemList {
  readonly problems: Problem[] = [];
  readonly warnings: Warning[] = [];

  add(file: string, rule: string, message: string, field?: string): void {
    this.problems.push({ file, rule, message, ...(field ? { field } : {}) });
  }

  warn(file: string, rule: string, message: string, field?: string): void {
    this.warnings.push({ file, rule, message, ...(field ? { field } : {}) });
  }
}

/** `file: field: message` — how antictl and logs print a problem. */
export const formatProblem = (problem: Problem): string => [problem.file, problem.field, problem.message].filter(Boolean).join(': ');
