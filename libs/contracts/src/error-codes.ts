/** Codes of bus error replies (`{ "error": { code, message } }`): what a requester may branch on. */
export const ErrorCodes = {
  invalidPayload: 'INVALID_PAYLOAD',
  notFound: 'NOT_FOUND',
  internal: 'INTERNAL',
  unavailable: 'UNAVAILABLE',
  timeout: 'TIMEOUT',
  /** The request does not fit the record's state (endpoints without an address yet). */
  invalidState: 'INVALID_STATE',
  /** The healthchecker will not probe an address outside the configured pod and service ranges. */
  addressNotAllowed: 'ADDRESS_NOT_ALLOWED',
} as const;
export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

/** Why the scheduler did not accept a request (`SchedulerReply.code`). */
export const SchedulerRejections = {
  notFound: ErrorCodes.notFound,
  /** The live lesson has failed: only a delete is accepted. */
  failed: 'FAILED',
  /** A delete for a live lesson whose row records no deletion request: the row is the request. */
  deletionNotRequested: 'DELETION_NOT_REQUESTED',
  /** A bind for a warm-pool member no learner has claimed. */
  notClaimed: 'NOT_CLAIMED',
} as const;
export type SchedulerRejection = (typeof SchedulerRejections)[keyof typeof SchedulerRejections];

/** Codes of the data layer's errors, which the api maps to HTTP answers. */
export const DataErrorCodes = {
  notFound: ErrorCodes.notFound,
  /** The record's id is taken: a fresh id may succeed. */
  idTaken: 'ID_TAKEN',
  /** Another record holds the same unique combination (a session's live lesson of one lesson). */
  duplicate: 'DUPLICATE',
} as const;
export type DataErrorCode = (typeof DataErrorCodes)[keyof typeof DataErrorCodes];

/** Codes `antictl` gives a failure (printed under `--json` as `{ "error": { code, … } }`): stable for scripts. */
export const CliErrorCodes = {
  /** A mistake on the command line (exit code 2); commander's own codes are derived from its names. */
  usage: 'USAGE',
  failed: 'FAILED',
  internal: ErrorCodes.internal,
  timeout: ErrorCodes.timeout,
  notBuilt: 'NOT_BUILT',
  missingDependency: 'MISSING_DEPENDENCY',
  curriculumInvalid: 'CURRICULUM_INVALID',
  portInUse: 'PORT_IN_USE',
  portUnavailable: 'PORT_UNAVAILABLE',
  alreadyRunning: 'ALREADY_RUNNING',
  processExited: 'PROCESS_EXITED',
  sessionRequired: 'SESSION_REQUIRED',
  adminTokenRequired: 'ADMIN_TOKEN_REQUIRED',
  apiUnreachable: 'API_UNREACHABLE',
  badResponse: 'BAD_RESPONSE',
  badStage: 'BAD_STAGE',
  stageOutOfRange: 'STAGE_OUT_OF_RANGE',
  lessonNotFound: 'LESSON_NOT_FOUND',
  lessonFailed: 'LESSON_FAILED',
  badPoolSize: 'BAD_POOL_SIZE',
  natsUnreachable: 'NATS_UNREACHABLE',
  noReaper: 'NO_REAPER',
} as const;
