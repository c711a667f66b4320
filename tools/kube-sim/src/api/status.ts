/** Kubernetes `Status` objects: every error kube-sim returns has this shape. */
export interface StatusBody {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure' | 'Success';
  message: string;
  reason: string;
  details?: { name?: string; group?: string; kind?: string; causes?: { reason: string; message: string; field: string }[]; retryAfterSeconds?: number };
  code: number;
}

export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: StatusBody['details'],
  ) {
    super(message);
  }

  toStatus(): StatusBody {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      ...(this.details ? { details: this.details } : {}),
      code: this.code,
    };
  }
}

const qualified = (plural: string, group: string): string => (group ? `${plural}.${group}` : plural);

export const notFound = (plural: string, group: string, name: string): ApiError =>
  new ApiError(404, 'NotFound', `${qualified(plural, group)} "${name}" not found`, { name, group, kind: plural });
export const alreadyExists = (plural: string, group: string, name: string): ApiError =>
  new ApiError(409, 'AlreadyExists', `${qualified(plural, group)} "${name}" already exists`, { name, group, kind: plural });
export const conflict = (plural: string, group: string, name: string): ApiError =>
  new ApiError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualified(plural, group)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    {
      name,
      group,
      kind: plural,
    },
  );
export interface Cause {
  field: string;
  message: string;
  /** FieldValueInvalid unless told (FieldValueRequired, FieldValueForbidden, FieldValueNotSupported …). */
  reason?: string;
}

/** 422 as a real server words it: `Kind.group "name" is invalid: <cause>` — several causes in `[…]`. */
export const invalid = (kind: string, name: string, causes: Cause[], group = ''): ApiError => {
  const listed = causes.map((cause) => `${cause.field}: ${cause.message}`);
  return new ApiError(
    422,
    'Invalid',
    `${group ? `${kind}.${group}` : kind} "${name}" is invalid: ${listed.length === 1 ? listed[0] : `[${listed.join(', ')}]`}`,
    {
      name,
      ...(group ? { group } : {}),
      kind,
      causes: causes.map((cause) => ({ reason: cause.reason ?? reasonOf(cause.message), message: cause.message, field: cause.field })),
    },
  );
};

function reasonOf(message: string): string {
  if (message.startsWith('Required value')) return 'FieldValueRequired';
  if (message.startsWith('Forbidden')) return 'FieldValueForbidden';
  if (message.startsWith('Unsupported value')) return 'FieldValueNotSupported';
  return 'FieldValueInvalid';
}

/** 400 for a body the server cannot decode as the path's kind (`Kind in version "v1" cannot be handled as a Kind: …`). */
export const undecodable = (bodyKind: string, version: string, pathKind: string, why: string): ApiError =>
  new ApiError(400, 'BadRequest', `${bodyKind} in version "${version}" cannot be handled as a ${pathKind}: ${why}`);
export const badRequest = (message: string): ApiError => new ApiError(400, 'BadRequest', message);
export const gone = (message: string): ApiError => new ApiError(410, 'Expired', message);
export const methodNotAllowed = (message: string): ApiError => new ApiError(405, 'MethodNotAllowed', message);
export const forbidden = (message: string, reason = 'Forbidden'): ApiError => new ApiError(403, reason, message);
