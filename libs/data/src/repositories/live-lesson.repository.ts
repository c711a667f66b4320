import { assignments, fromJsonRows, fromRow, jsonRows, selectEntities, sqlCount, sqlRows, toColumns } from '../sql.js';
import type { DataSource, EntityManager } from 'typeorm';
import { DataErrorCodes, LiveLessonStatus, phaseTimeKeyOf, type PhaseTimeKey } from '@antidote/contracts';
import type { GuideType } from '@antidote/curriculum';
import { DuplicateError, isUniqueViolation, NotFoundError } from '../data.errors.js';
import { LiveLessonEntity, LiveSessionEntity } from '../entities/index.js';
import { storedEndpoint, toLiveLesson } from '../live-lesson.mapper.js';
import type { LiveEndpoint, LiveLesson, LiveLessonFilter, NewLiveLesson, WrittenLiveLessonState } from '../live.types.js';
import { jsonSqlOf, keyParameters } from './live-lesson.json-sql.js';

/** Ids per IN (…) list: well under both databases' parameter limits. */
const ID_CHUNK = 500;

/** The state columns `findState` and `writeState` return, read back through the entity's own transformers (`fromRow`). */
const STATE_RETURNING =
  'id, session_id, lesson_slug, status, error, failure_reason, current_stage, healthy_tests, total_tests, phase_times, pool, updated_at, estimated_ready_at';
type StateColumns = Pick<
  LiveLessonEntity,
  | 'id'
  | 'sessionId'
  | 'lessonSlug'
  | 'status'
  | 'error'
  | 'failureReason'
  | 'currentStage'
  | 'healthyTests'
  | 'totalTests'
  | 'phaseTimes'
  | 'pool'
  | 'updatedAt'
  | 'estimatedReadyAt'
>;
const writtenState = (dataSource: DataSource, row: Record<string, unknown>): WrittenLiveLessonState => {
  const { status, failureReason, estimatedReadyAt, ...state } = fromRow(dataSource, LiveLessonEntity, row) as StateColumns;
  return {
    ...state,
    status: status as LiveLessonStatus,
    ...(failureReason !== null ? { failureReason } : {}),
    ...(estimatedReadyAt !== null ? { estimatedReadyAt } : {}),
  };
};

const missing = (id: string): NotFoundError => new NotFoundError(`Livelesson ${id} doesn't exist; cannot update`);

/** What a status write writes besides the status (each when given), in the same statement. */
export interface StatusWrite {
  /** When the start is expected READY. */
  estimatedReadyAt?: Date | undefined;
  /** The stage whose configuration ran. */
  configuredStage?: number | undefined;
  /** The claim of this replica, released (the work ends with this write) if it still holds it. */
  releasedBy?: string | undefined;
  /** Endpoints' Service addresses (endpoint name → host), merged into those recorded. */
  hosts?: ReadonlyMap<string, string> | undefined;
}

/** A status write's answer: the state as written, and the endpoints' up times (endpoint name → when first found up). */
export type WrittenStatus = WrittenLiveLessonState & { endpointUpAt: ReadonlyMap<string, Date> };

/** Live lessons and their endpoints (on the row). Every update targets its columns only (no read-modify-write; `addEndpoint`, the claim holder's, aside). */
export class LiveLessonRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly now: () => Date,
  ) {}

  /**
   * Inserts the row, its endpoints on it, in one statement (in `manager`'s transaction when given: written
   * with what else it writes); a duplicate id or (session, lesson) is a DuplicateError.
   */
  async create(lesson: NewLiveLesson, manager?: EntityManager): Promise<LiveLesson> {
    const at = lesson.createdAt ?? this.now();
    const { endpoints, ...fields } = lesson;
    const entity: LiveLessonEntity = {
      ...fields,
      status: LiveLessonStatus.INITIALIZED,
      error: false,
      failureReason: null,
      healthyTests: 0,
      totalTests: endpoints.length,
      createdAt: at,
      lastActiveAt: at,
      updatedAt: at,
      phaseTimes: { initializedAt: at.toISOString() },
      configuredStage: null,
      deleteRequestedAt: null,
      claimedBy: null,
      claimedUntil: null,
      pool: fields.pool ?? false,
      estimatedReadyAt: null,
      endpoints: endpoints.map(storedEndpoint),
      endpointHosts: Object.fromEntries(endpoints.flatMap((endpoint) => (endpoint.host ? [[endpoint.name, endpoint.host]] : []))),
      endpointUpAt: Object.fromEntries(endpoints.flatMap((endpoint) => (endpoint.upAt ? [[endpoint.name, endpoint.upAt.getTime()]] : []))),
    };
    try {
      // One row, its endpoints on it; every column is given, so nothing is read back after the insert (TypeORM's default re-reads columns with defaults).
      await (manager ?? this.dataSource.manager)
        .createQueryBuilder()
        .insert()
        .into(LiveLessonEntity)
        .values({ ...entity })
        .updateEntity(false)
        .execute();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const existing = await this.find(lesson.id);
      throw existing
        ? new DuplicateError(`Livelesson ${lesson.id} already exists`, DataErrorCodes.idTaken)
        : new DuplicateError(`Session ${lesson.sessionId} already has a live lesson of ${lesson.lessonSlug}`, DataErrorCodes.duplicate);
    }
    // The row as written (what a read would return: nothing else writes it before this returns).
    return toLiveLesson(entity);
  }

  async get(id: string): Promise<LiveLesson> {
    const lesson = await this.find(id);
    if (!lesson) throw new NotFoundError(`Unable to find liveLesson ${id}`);
    return lesson;
  }

  async find(id: string): Promise<LiveLesson | undefined> {
    const [lesson] = await this.where('id = :id', { id });
    return lesson;
  }

  /** The row's state alone (one narrow query: no endpoints, no guide), for checking an event against it. */
  async findState(id: string): Promise<WrittenLiveLessonState | undefined> {
    const [row] = await sqlRows<Record<string, unknown>>(this.dataSource, `SELECT ${STATE_RETURNING} FROM live_lessons WHERE id = :id`, { id });
    return row && writtenState(this.dataSource, row);
  }

  /** The states of the rows among `ids` that exist (narrow queries of up to 500 ids each), e.g. for every open event stream. */
  async findStates(ids: readonly string[]): Promise<Map<string, WrittenLiveLessonState>> {
    const states = new Map<string, WrittenLiveLessonState>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await sqlRows<Record<string, unknown>>(this.dataSource, `SELECT ${STATE_RETURNING} FROM live_lessons WHERE id IN (:...ids)`, {
        ids: ids.slice(i, i + 500),
      });
      for (const row of rows) states.set(row.id as string, writtenState(this.dataSource, row));
    }
    return states;
  }

  /** The row's state and whether it has an endpoint of that name (one query), for checking a health progress event against it. */
  async findStateWithEndpoint(id: string, endpoint: string): Promise<(WrittenLiveLessonState & { hasEndpoint: boolean }) | undefined> {
    const [row] = await sqlRows<Record<string, unknown> & { has_endpoint: number | boolean }>(
      this.dataSource,
      `SELECT ${STATE_RETURNING}, CASE WHEN ${jsonSqlOf(this.dataSource).hasNamed('endpoints')} THEN 1 ELSE 0 END AS has_endpoint FROM live_lessons WHERE id = :id`,
      { id, ...keyParameters(endpoint) },
    );
    return row && { ...writtenState(this.dataSource, row), hasEndpoint: Number(row.has_endpoint) === 1 };
  }

  async findForSession(sessionId: string, lessonSlug: string): Promise<LiveLesson | undefined> {
    const [lesson] = await this.where('session_id = :sessionId AND lesson_slug = :lessonSlug', { sessionId, lessonSlug });
    return lesson;
  }

  /** A session's live lessons with their endpoints, oldest first, in one statement. */
  async listForSession(sessionId: string): Promise<LiveLesson[]> {
    return this.where('session_id = :sessionId', { sessionId });
  }

  async list(filter: LiveLessonFilter = {}): Promise<LiveLesson[]> {
    const columns = toColumns(this.dataSource, LiveLessonEntity, {
      sessionId: filter.sessionId,
      status: filter.status,
      error: filter.error,
      pool: filter.pool,
    });
    const where = Object.keys(columns).map((column) => `${column} = :${column}`);
    return this.where(where.length > 0 ? where.join(' AND ') : '1 = 1', columns);
  }

  /** The live lessons among `ids` that exist (statements of up to 500 ids each), oldest first within each. */
  async byIds(ids: readonly string[]): Promise<LiveLesson[]> {
    const lessons: LiveLesson[] = [];
    for (let i = 0; i < ids.length; i += ID_CHUNK) lessons.push(...(await this.where('id IN (:...ids)', { ids: ids.slice(i, i + ID_CHUNK) })));
    return lessons;
  }

  /**
   * A learner's request: the session's activity written (its last active time) and its live lessons with
   * their endpoints read, oldest first, in one statement (the UPDATE answers them). Undefined when the
   * session does not exist.
   */
  async touchSession(sessionId: string, at: Date = this.now()): Promise<LiveLesson[] | undefined> {
    const labs = jsonRows(this.dataSource, LiveLessonEntity, 'session_id = :sessionId', 'created_at, id');
    const [row] = await sqlRows<{ labs: string }>(
      this.dataSource,
      `UPDATE live_sessions SET last_active_at = :last_active_at WHERE id = :sessionId RETURNING ${labs} AS labs`,
      { sessionId, ...toColumns(this.dataSource, LiveSessionEntity, { lastActiveAt: at }) },
    );
    return row && fromJsonRows(this.dataSource, LiveLessonEntity, row.labs).map(toLiveLesson);
  }

  /** Ids of the session's live lessons (HEAD's GetLiveLessonsForSession). */
  async idsForSession(sessionId: string): Promise<string[]> {
    const rows = await sqlRows<{ id: string }>(this.dataSource, 'SELECT id FROM live_lessons WHERE session_id = :sessionId ORDER BY created_at ASC, id ASC', {
      sessionId,
    });
    return rows.map((row) => row.id);
  }

  /** Every live lesson id (one light query: the reaper compares it with the namespaces). */
  async ids(): Promise<string[]> {
    const rows = await this.dataSource.manager.find(LiveLessonEntity, { select: { id: true } });
    return rows.map((row) => row.id);
  }

  async count(filter: { statuses?: LiveLessonStatus[]; error?: boolean } = {}): Promise<number> {
    const conditions = [...(filter.statuses ? ['status IN (:...statuses)'] : []), ...(filter.error !== undefined ? ['error = :error'] : [])];
    if (filter.statuses?.length === 0) return 0;
    return sqlCount(this.dataSource, `FROM live_lessons${conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : ''}`, {
      statuses: filter.statuses,
      error: toColumns(this.dataSource, LiveLessonEntity, { error: filter.error ?? false }).error,
    });
  }

  /**
   * The api's stage change: status CONFIGURATION, the new stage and its guide, in one UPDATE that only
   * applies when the live lesson is READY and not failed. False when it was not (busy or failed).
   */
  async changeStage(id: string, stage: number, guide: { guideType: GuideType; guideContents: string }): Promise<boolean> {
    const result = await this.dataSource.manager.update(
      LiveLessonEntity,
      { id, status: LiveLessonStatus.READY, error: false },
      { currentStage: stage, guideType: guide.guideType, guideContents: guide.guideContents, status: LiveLessonStatus.CONFIGURATION, updatedAt: this.now() },
    );
    if (result.affected) return true;
    if (!(await this.exists(id))) throw missing(id);
    return false;
  }

  /**
   * Sets the status and records when the phase began, in one statement (the phase time is merged into the
   * JSON by the database: no read-modify-write, no transaction), with what `also` gives (StatusWrite);
   * returns the row's state as written and the endpoints' up times (what a start's record is drawn from).
   */
  async updateStatus(id: string, status: LiveLessonStatus, also: StatusWrite = {}): Promise<WrittenStatus> {
    const { estimatedReadyAt, configuredStage, releasedBy, hosts } = also;
    const at = this.now();
    const assigned = [
      ...(releasedBy ? ['claimed_by', 'claimed_until'].map((column) => `${column} = CASE WHEN claimed_by = :releasedBy THEN NULL ELSE ${column} END`) : []),
      ...(hosts ? [`endpoint_hosts = ${jsonSqlOf(this.dataSource).patched('endpoint_hosts')}`] : []),
    ];
    return this.writeState(id, { status, updatedAt: at, estimatedReadyAt, configuredStage }, phaseTimeKeyOf[status], at, assigned, {
      ...(releasedBy ? { releasedBy } : {}),
      ...(hosts ? { patch: JSON.stringify(Object.fromEntries(hosts)) } : {}),
    });
  }

  /** Error flag, a human-readable reason, and when it failed; returns the row's state as written. */
  async markFailed(id: string, reason: string): Promise<WrittenStatus> {
    const at = this.now();
    return this.writeState(id, { error: true, failureReason: reason, updatedAt: at }, 'failedAt', at);
  }

  /** Writes endpoints' Service addresses (endpoint name → host), merged into those recorded (a resumed create whose Services changed; a new one writes them with BOOTING). */
  async updateEndpointHosts(id: string, hosts: ReadonlyMap<string, string>): Promise<void> {
    const sql = `UPDATE live_lessons SET endpoint_hosts = ${jsonSqlOf(this.dataSource).patched('endpoint_hosts')} WHERE id = :id RETURNING id`;
    const rows = await sqlRows(this.dataSource, sql, { id, patch: JSON.stringify(Object.fromEntries(hosts)) });
    if (rows.length === 0) throw missing(id);
  }

  /** Adds an endpoint (the jupyter guide); idempotent for an endpoint of the same name. The claim holder's write: nothing else changes the list. */
  async addEndpoint(id: string, endpoint: LiveEndpoint): Promise<void> {
    const lesson = await this.find(id);
    if (!lesson) throw missing(id);
    if (lesson.endpoints.some((existing) => existing.name === endpoint.name)) return;
    const endpoints = [...lesson.endpoints, endpoint];
    await this.update(id, { endpoints: endpoints.map(storedEndpoint), totalTests: endpoints.length });
  }

  async updateTests(id: string, healthy: number, total: number): Promise<void> {
    await this.update(id, { healthyTests: healthy, totalTests: total });
  }

  /**
   * Records that an endpoint was found up (its first time only) and counts the lesson's endpoints up into
   * `healthy_tests`, which never decreases: what a restarted healthchecker resumes from and learners see.
   * Returns the row's counts after the write.
   */
  async recordEndpointUp(id: string, endpoint: string, at: Date = this.now()): Promise<{ healthy: number; total: number }> {
    // One statement: the up time merged into the row's (an unknown endpoint, or one up already, changes nothing), the count from it.
    const json = jsonSqlOf(this.dataSource);
    const fresh = `(${json.hasNamed('endpoints')} AND NOT ${json.hasKey('endpoint_up_at')})`;
    const [row] = await sqlRows<Record<string, unknown>>(
      this.dataSource,
      `UPDATE live_lessons SET endpoint_up_at = CASE WHEN ${fresh} THEN ${json.withKey('endpoint_up_at', 'CAST(:at AS bigint)')} ELSE endpoint_up_at END,
        healthy_tests = ${json.greatest('healthy_tests', `${json.keyCount('endpoint_up_at')} + CASE WHEN ${fresh} THEN 1 ELSE 0 END`)},
        updated_at = :updated_at WHERE id = :id RETURNING healthy_tests, total_tests`,
      { id, at: at.getTime(), ...keyParameters(endpoint), ...toColumns(this.dataSource, LiveLessonEntity, { updatedAt: this.now() }) },
    );
    if (!row) throw missing(id);
    const { healthyTests, totalTests } = fromRow(this.dataSource, LiveLessonEntity, row);
    return { healthy: healthyTests!, total: totalTests! };
  }

  async updateLastActiveTime(id: string, at: Date = this.now()): Promise<void> {
    const result = await this.dataSource.manager.update(LiveLessonEntity, { id }, { lastActiveAt: at });
    if (!result.affected) throw missing(id);
  }

  async setConfiguredStage(id: string, stage: number | null): Promise<void> {
    await this.update(id, { configuredStage: stage });
  }

  /** Records that deletion was asked for (idempotent: the first request's time is kept). */
  async requestDeletion(id: string): Promise<void> {
    if (!(await this.exists(id))) throw missing(id);
    await this.dataSource
      .createQueryBuilder()
      .update(LiveLessonEntity)
      .set({ deleteRequestedAt: this.now() })
      .where('id = :id', { id })
      .andWhere('delete_requested_at IS NULL')
      .execute();
  }

  /** Idempotent; endpoints go with it. */
  async delete(id: string): Promise<void> {
    await this.dataSource.manager.delete(LiveLessonEntity, { id });
  }

  async exists(id: string): Promise<boolean> {
    return (await sqlRows(this.dataSource, 'SELECT 1 AS found FROM live_lessons WHERE id = :id', { id })).length > 0;
  }

  /** One UPDATE of these properties (through their columns' transformers) and updatedAt; a missing row is a NotFoundError. */
  private async update(id: string, values: Partial<LiveLessonEntity>): Promise<void> {
    const columns = toColumns(this.dataSource, LiveLessonEntity, { ...values, updatedAt: this.now() });
    const sql = `UPDATE live_lessons SET ${assignments(columns).join(', ')} WHERE id = :id RETURNING id`;
    const rows = await sqlRows(this.dataSource, sql, { ...columns, id });
    if (rows.length === 0) throw missing(id);
  }

  /** One UPDATE of these properties (and the `also` assignments with their parameters) plus a phase time merged into `phase_times`, RETURNING the state columns. */
  private async writeState(
    id: string,
    values: Partial<LiveLessonEntity>,
    phase: PhaseTimeKey,
    at: Date,
    also: string[] = [],
    alsoParameters: Record<string, string> = {},
  ): Promise<WrittenStatus> {
    const columns = toColumns(this.dataSource, LiveLessonEntity, values);
    const merged =
      this.dataSource.options.type === 'postgres'
        ? '(phase_times::jsonb || jsonb_build_object(CAST(:phase AS text), CAST(:time AS text)))::text'
        : "json_set(phase_times, '$.' || :phase, :time)";
    const [row] = await sqlRows<Record<string, unknown>>(
      this.dataSource,
      `UPDATE live_lessons SET ${[...assignments(columns), ...also, `phase_times = ${merged}`].join(', ')} WHERE id = :id RETURNING ${STATE_RETURNING}, endpoint_up_at`,
      { ...columns, ...alsoParameters, phase, time: at.toISOString(), id },
    );
    if (!row) throw missing(id);
    const { endpoint_up_at: upAt, ...state } = row;
    const { endpointUpAt } = fromRow(this.dataSource, LiveLessonEntity, { endpoint_up_at: upAt });
    return {
      ...writtenState(this.dataSource, state),
      endpointUpAt: new Map(Object.entries(endpointUpAt ?? {}).map(([name, ms]) => [name, new Date(ms)])),
    };
  }

  /** The live lessons `WHERE where` (the table's column names), oldest first: one statement, the endpoints on each row. */
  private async where(where: string, parameters: Record<string, unknown>): Promise<LiveLesson[]> {
    return (await selectEntities(this.dataSource, LiveLessonEntity, where, parameters, 'created_at ASC, id ASC')).map(toLiveLesson);
  }
}
