/** A live lesson could not be provisioned; `reason` is what the learner and the operator see. */
export class LessonFailure extends Error {
  readonly code = 'LESSON_FAILED';

  constructor(
    readonly reason: string,
    /** Keep the reason, but do not tear down (e.g. admission refused before anything was created). */
    readonly nothingToClean = false,
  ) {
    super(reason);
    this.name = 'LessonFailure';
  }
}

/** The human-readable text of any failure. */
export function reasonOf(error: unknown): string {
  if (error instanceof LessonFailure) return error.reason;
  if (error instanceof Error) return error.message;
  return String(error);
}
