/** Why the NetworkAttachmentDefinition CRD could not be made available. */
export type NadCrdErrorCode = 'NAD_CRD_CREATE_FAILED' | 'NAD_CRD_INCOMPATIBLE' | 'NAD_CRD_NAMES_REJECTED' | 'NAD_CRD_NOT_ESTABLISHED';

export class NadCrdError extends Error {
  override readonly name = 'NadCrdError';

  constructor(
    readonly code: NadCrdErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
