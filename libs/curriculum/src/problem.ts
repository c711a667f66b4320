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

  private readonly seen = new Set<string>();

  /** Records a problem once: the same path met by two walks (a symlinked folder) is reported one time. */
  add(file: string, rule: string, message: string, field?: string): void {
    this.push(this.problems, { file, rule, message, ...(field ? { field } : {}) });
  }

  warn(file: string, rule: string, message: string, field?: string): void {
    this.push(this.warnings, { file, rule, message, ...(field ? { field } : {}) });
  }

  private push(list: Problem[], problem: Problem): void {
    const key = JSON.stringify([list === this.problems, problem.file, problem.field, problem.rule, problem.message]);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    list.push(problem);
  }
}

/** `file: field: message` — how antictl and logs print a problem. */
export const formatProblem = (problem: Problem): string => [problem.file, problem.field, problem.message].filter(Boolean).join(': ');
