import { CliError } from './output.js';

export interface ExpEndpoint {
  Name: string;
  Image: string;
  Host: string;
  Ports: number[];
  SSHUser: string;
  SSHPassword: string;
  LivePresentations: { Name: string; Port: number; Type: string; HepDomain: string }[];
}

export interface ExpLiveLesson {
  ID: string;
  SessionID: string;
  LessonSlug: string;
  CurrentStage: number;
  Status: string;
  Error: boolean;
  HealthyTests: number;
  TotalTests: number;
  LiveEndpoints: Record<string, ExpEndpoint>;
}

/** The `/exp` REST API, as a front-end uses it; gateway errors `{error, code, message}` become CliErrors. */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly adminToken = '',
  ) {}

  createSession(): Promise<{ ID: string }> {
    return this.call('POST', '/exp/livesession', {});
  }

  requestLiveLesson(lessonSlug: string, sessionId: string, lessonStage: number): Promise<{ id: string }> {
    return this.call('POST', '/exp/livelesson', { lessonSlug, sessionId, lessonStage });
  }

  getLiveLesson(id: string): Promise<ExpLiveLesson> {
    return this.call('GET', `/exp/livelesson/${encodeURIComponent(id)}`);
  }

  /** Kills as an operator with the admin token, else as the live lesson's own session. */
  async killLiveLesson(id: string): Promise<{ success: boolean }> {
    const session = this.adminToken ? '' : `?sessionId=${encodeURIComponent((await this.getLiveLesson(id)).SessionID)}`;
    return this.call('DELETE', `/exp/livelesson/${encodeURIComponent(id)}${session}`);
  }

  listLiveLessons(): Promise<unknown> {
    if (!this.adminToken) throw new CliError('listing every live lesson needs the admin token (--token or ANTIDOTE_ADMIN_TOKEN)', 2);
    return this.call('GET', '/exp/admin/livelessons');
  }

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(this.adminToken ? { authorization: `Bearer ${this.adminToken}` } : {}) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(15_000),
      });
    } catch (error) {
      throw new CliError(`cannot reach the Antidote API at ${this.baseUrl}: ${error instanceof Error ? (error.cause as Error | undefined)?.message ?? error.message : String(error)}`);
    }
    const text = await response.text();
    const parsed = text ? (JSON.parse(text) as unknown) : undefined;
    if (!response.ok) {
      const message = (parsed as { message?: string } | undefined)?.message ?? text;
      throw new ApiError(response.status, message);
    }
    return parsed as T;
  }
}

export class ApiError extends CliError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(`API ${status}: ${message}`);
  }
}
