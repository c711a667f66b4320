/** Where and how long to ask an endpoint for its readiness answer. */
export interface FetchTarget {
  host: string;
  port: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** What the endpoint answered: text (command output, banner) or an HTTP status; or why it did not answer. */
export type FetchOutcome = { ok: true; text?: string; status?: number } | { ok: false; error: string };

/** The three ways of asking (real sockets in the healthchecker, fakes in unit tests). */
export interface ReadinessFetchers {
  sshCommand(target: FetchTarget, command: string, credentials: { username?: string; password?: string }): Promise<FetchOutcome>;
  httpStatus(target: FetchTarget, path: string): Promise<FetchOutcome>;
  tcpBanner(target: FetchTarget): Promise<FetchOutcome>;
}
