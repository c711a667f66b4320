/** WebSocket close codes of a terminal (4000–4999 are the application's), each with what the page shows. */
export const TerminalCloseCode = {
  /** The shell ended (`exit`) or the page closed it. */
  normal: 1000,
  /** A frame larger than `api.terminals.maxFrameBytes`. */
  tooBig: 1009,
  badRequest: 4400,
  /** No such lab for this session (another session's lab looks the same: no oracle). */
  forbidden: 4403,
  idle: 4408,
  notReady: 4409,
  tooMany: 4429,
  /** The SSH session could not be opened. */
  unavailable: 4503,
  shuttingDown: 1001,
} as const;
export type TerminalCloseCode = (typeof TerminalCloseCode)[keyof typeof TerminalCloseCode];

/** Why a terminal was refused or ended; its message is safe to show the learner (it never names a password). */
export class TerminalRefusal extends Error {
  constructor(
    readonly code: TerminalCloseCode,
    message: string,
  ) {
    super(message);
    this.name = 'TerminalRefusal';
  }
}
