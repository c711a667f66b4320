export type LessonObjectErrorCode =
  | 'ENDPOINT_WITHOUT_PORTS'
  | 'UNKNOWN_IMAGE'
  | 'INVALID_LESSON_DIR'
  | 'INVALID_CONFIGURATION_FILE'
  | 'UNKNOWN_CONFIGURATION_TYPE'
  | 'INVALID_NAPALM_DRIVER'
  | 'ENDPOINT_WITHOUT_HOST';

/** A lesson that cannot be turned into Kubernetes objects; thrown by the builders before any API call. */
export class LessonObjectError extends Error {
  override readonly name = 'LessonObjectError';

  constructor(
    readonly code: LessonObjectErrorCode,
    message: string,
  ) {
    super(message);
  }
}
