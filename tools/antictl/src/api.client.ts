import { CliErrorCodes } from '@antidote/contracts/error-codes';
import type { PoolResize, PoolSummary, QueueSummary } from '@antidote/contracts';
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

export interface ExpLesson {
  Slug: string;
  Name: string;
  Stages: { Description: string }[];
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
  async killLiveLesson(id: string, sessionId?: string): Promise<{ success: boolean }> {
    const session = this.adminToken ? '' : `?sessionId=${encodeURIComponent(await this.sessionOf(id, sessionId))}`;
    return this.call('DELETE', `/exp/livelesson/${encodeURIComponent(id)}${session}`);
  }

  /**
   * The session a live lesson belongs to: the one given, else the one the api shows an operator (the api
   * shows it to no one else, so without the admin token it must be given).
   */
  async sessionOf(id: string, given?: string, lesson?: ExpLiveLesson): Promise<string> {
    if (given) return given;
    const found = (lesson ?? (await this.getLiveLesson(id))).SessionID;
    if (found) return found;
    throw new CliError(
      `live lesson ${id} belongs to a session the api shows operators only: pass --session <id> (\`lesson request\` prints it) or the admin token`,
      2,
      CliErrorCodes.sessionRequired,
    );
  }

  getLesson(slug: string): Promise<ExpLesson> {
    return this.call('GET', `/exp/lesson/${encodeURIComponent(slug)}`);
  }

  listLessons(): Promise<{ lessons?: ExpLesson[] }> {
    return this.call('GET', '/exp/lesson');
  }

  /** Every live lesson, by id (the admin route answers `{"LiveLessons": {<id>: …}}`). */
  async listLiveLessons(): Promise<ExpLiveLesson[]> {
    this.needAdmin('listing every live lesson');
    const answer = await this.call<{ LiveLessons?: Record<string, ExpLiveLesson> }>('GET', '/exp/admin/livelessons');
    return Object.values(answer?.LiveLessons ?? {});
  }

  /** The warm pools and their unclaimed members by state (admin route). */
  async listPools(): Promise<PoolSummary[]> {
    this.needAdmin('listing the warm pools');
    return (await this.call<{ pools: PoolSummary[] }>('GET', '/exp/admin/pools')).pools;
  }

  /** Sets a pool's size (0 drains it) over the config's, for every scheduler (admin route). */
  resizePool(slug: string, resize: PoolResize): Promise<PoolSummary> {
    this.needAdmin('resizing a warm pool');
    return this.call('PUT', `/exp/admin/pools/${encodeURIComponent(slug)}`, resize);
  }

  /** Drops an operator's size: the config's sizing again (admin route). */
  resetPool(slug: string): Promise<{ success: boolean }> {
    this.needAdmin('resetting a warm pool');
    return this.call('DELETE', `/exp/admin/pools/${encodeURIComponent(slug)}`);
  }

  /** The waiting room (admin route). */
  queue(): Promise<QueueSummary> {
    this.needAdmin('showing the waiting room');
    return this.call('GET', '/exp/admin/queue');
  }

  private needAdmin(what: string): void {
    if (!this.adminToken)
      throw new CliError(`${what} needs the admin token: run \`antictl up\` here, or pass --token / ANTIDOTE_ADMIN_TOKEN`, 2, CliErrorCodes.adminTokenRequired);
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
      const reason = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
      throw new CliError(`cannot reach the Antidote API at ${this.baseUrl}: ${reason}`, 1, CliErrorCodes.apiUnreachable);
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? (JSON.parse(text) as unknown) : undefined;
    } catch {
      throw new CliError(
        `${this.baseUrl}${path} answered ${response.status} with something other than JSON: is this an Antidote API?`,
        1,
        CliErrorCodes.badResponse,
      );
    }
    if (!response.ok) {
      const message = (parsed as { message?: string } | undefined)?.message ?? text;
      throw new ApiError(response.status, message);
    }
    return parsed as T;
  }
}

/** The API refused: `code` is `HTTP_<status>`. */
export class ApiError extends CliError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(`API ${status}: ${message}`, 1, `HTTP_${status}`);
  }
}
