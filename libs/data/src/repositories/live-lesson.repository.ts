import { assignments, fromRow, sqlCount, sqlRows, toColumns } from '../sql.js';
import { inTransaction } from '../transaction.js';
import { In, type DataSource, type EntityManager, type FindOptionsWhere } from 'typeorm';
import { DataErrorCodes, LiveLessonStatus, phaseTimeKeyOf, type PhaseTimeKey } from '@antidote/contracts';
import type { GuideType } from '@antidote/curriculum';
import { DuplicateError, isUniqueViolation, NotFoundError } from '../data.errors.js';
import { LiveEndpointEntity, LiveLessonEntity } from '../entities/index.js';
import { endpointEntity, toLiveLesson } from '../live-lesson.mapper.js';
import type { LiveEndpoint, LiveLesson, LiveLessonFilter, NewLiveLesson, WrittenLiveLessonState } from '../live.types.js';

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

/** Live lessons and their endpoints. Every update targets its columns only (no read-modify-write). */
export class LiveLessonRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly now: () => Date,
  ) {}

  /**
   * Inserts the row and its endpoints in one transaction (`manager`'s when given: written with what else
   * it writes); a duplicate id or (session, lesson) is a DuplicateError.
   */
  async create(lesson: NewLiveLesson, manager?: EntityManager): Promise<LiveLesson> {
    const at = lesson.createdAt ?? this.now();
    const { endpoints, ...fields } = lesson;
    const entity: Omit<LiveLessonEntity, 'endpoints'> = {
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
    };
    const endpointRows = endpoints.map((endpoint) => endpointEntity(lesson.id, endpoint));
    try {
      const write = async (manager: EntityManager): Promise<void> => {
        // Every column is given, so nothing is read back after the insert (TypeORM's default re-reads columns with defaults).
        await manager
          .createQueryBuilder()
          .insert()
          .into(LiveLessonEntity)
          .values({ ...entity })
          .updateEntity(false)
          .execute();
        if (endpointRows.length > 0)
          await manager
            .createQueryBuilder()
            .insert()
            .into(LiveEndpointEntity)
            .values(endpointRows.map((row) => ({ ...row })))
            .updateEntity(false)
            .execute();
      };
      await (manager ? write(manager) : inTransaction(this.dataSource, write));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const existing = await this.find(lesson.id);
      throw existing
        ? new DuplicateError(`Livelesson ${lesson.id} already exists`, DataErrorCodes.idTaken)
        : new DuplicateError(`Session ${lesson.sessionId} already has a live lesson of ${lesson.lessonSlug}`, DataErrorCodes.duplicate);
    }
    // The row as written (what a read would return: nothing else writes it before this returns).
    return toLiveLesson(entity, endpointRows);
  }

  async get(id: string): Promise<LiveLesson> {
    const lesson = await this.find(id);
    if (!lesson) throw new NotFoundError(`Unable to find liveLesson ${id}`);
    return lesson;
  }

  async find(id: string): Promise<LiveLesson | undefined> {
    const [lesson] = await this.joined({ id });
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
      `SELECT ${STATE_RETURNING}, EXISTS (SELECT 1 FROM live_endpoints WHERE live_lesson_id = :id AND name = :endpoint) AS has_endpoint FROM live_lessons WHERE id = :id`,
      { id, endpoint },
    );
    return row && { ...writtenState(this.dataSource, row), hasEndpoint: Number(row.has_endpoint) === 1 };
  }

  async findForSession(sessionId: string, lessonSlug: string): Promise<LiveLesson | undefined> {
    const [lesson] = await this.joined({ sessionId, lessonSlug });
    return lesson;
  }

  /** A session's live lessons with their endpoints, oldest first, in one statement. */
  async listForSession(sessionId: string): Promise<LiveLesson[]> {
    return this.joined({ sessionId });
  }

  async list(filter: LiveLessonFilter = {}): Promise<LiveLesson[]> {
    const where: FindOptionsWhere<LiveLessonEntity> = {};
    if (filter.sessionId !== undefined) where.sessionId = filter.sessionId;
    if (filter.status !== undefined) where.status = filter.status;
    if (filter.error !== undefined) where.error = filter.error;
    return this.load(where);
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
   * JSON by the database: no read-modify-write, no transaction); returns the row's state as written.
   * `estimatedReadyAt` and `configuredStage` (the stage whose configuration ran), when given, are written
   * in the same statement; so is the release of the claim of `releasedBy` (the work ends with this write),
   * when that replica still holds it.
   */
  async updateStatus(
    id: string,
    status: LiveLessonStatus,
    estimatedReadyAt?: Date,
    configuredStage?: number,
    releasedBy?: string,
  ): Promise<WrittenLiveLessonState> {
    const at = this.now();
    const release = releasedBy
      ? ['claimed_by', 'claimed_until'].map((column) => `${column} = CASE WHEN claimed_by = :releasedBy THEN NULL ELSE ${column} END`)
      : [];
    return this.writeState(
      id,
      { status, updatedAt: at, estimatedReadyAt, configuredStage },
      phaseTimeKeyOf[status],
      at,
      release,
      releasedBy ? { releasedBy } : {},
    );
  }

  /** Error flag, a human-readable reason, and when it failed; returns the row's state as written. */
  async markFailed(id: string, reason: string): Promise<WrittenLiveLessonState> {
    const at = this.now();
    return this.writeState(id, { error: true, failureReason: reason, updatedAt: at }, 'failedAt', at);
  }

  /** Writes endpoints' Service addresses (endpoint name → host); an unknown endpoint name changes nothing (original behaviour). */
  async updateEndpointHosts(id: string, hosts: ReadonlyMap<string, string>): Promise<void> {
    const entries = [...hosts];
    const parameters = Object.fromEntries(
      entries.flatMap(([name, host], i) => [
        [`name${i}`, name],
        [`host${i}`, host],
      ]),
    );
    const cases = entries.map((_, i) => `WHEN :name${i} THEN :host${i}`).join(' ');
    const written =
      entries.length > 0 &&
      (
        await sqlRows(
          this.dataSource,
          `UPDATE live_endpoints SET host = CASE name ${cases} ELSE host END WHERE live_lesson_id = :id AND name IN (:...names) RETURNING name`,
          {
            ...parameters,
            names: entries.map(([name]) => name),
            id,
          },
        )
      ).length > 0;
    if (!written && !(await this.exists(id))) throw missing(id);
  }

  /** Adds an endpoint (the jupyter guide); idempotent for an endpoint of the same name. */
  async addEndpoint(id: string, endpoint: LiveEndpoint): Promise<void> {
    if (!(await this.exists(id))) throw missing(id);
    await inTransaction(this.dataSource, async (manager) => {
      const existing = await manager.findOneBy(LiveEndpointEntity, { liveLessonId: id, name: endpoint.name });
      if (!existing) await manager.insert(LiveEndpointEntity, endpointEntity(id, endpoint));
      const total = await manager.countBy(LiveEndpointEntity, { liveLessonId: id });
      await manager.update(LiveLessonEntity, { id }, { totalTests: total, updatedAt: this.now() });
    });
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
    await sqlRows(this.dataSource, 'UPDATE live_endpoints SET up_at = :up_at WHERE live_lesson_id = :id AND name = :endpoint AND up_at IS NULL', {
      ...toColumns(this.dataSource, LiveEndpointEntity, { upAt: at }),
      id,
      endpoint,
    });
    const up = '(SELECT COUNT(*) FROM live_endpoints WHERE live_lesson_id = :id AND up_at IS NOT NULL)';
    const [row] = await sqlRows<Record<string, unknown>>(
      this.dataSource,
      `UPDATE live_lessons SET healthy_tests = CASE WHEN ${up} > healthy_tests THEN ${up} ELSE healthy_tests END, updated_at = :updated_at WHERE id = :id RETURNING healthy_tests, total_tests`,
      { id, ...toColumns(this.dataSource, LiveLessonEntity, { updatedAt: this.now() }) },
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
  ): Promise<WrittenLiveLessonState> {
    const columns = toColumns(this.dataSource, LiveLessonEntity, values);
    const merged =
      this.dataSource.options.type === 'postgres'
        ? '(phase_times::jsonb || jsonb_build_object(CAST(:phase AS text), CAST(:time AS text)))::text'
        : "json_set(phase_times, '$.' || :phase, :time)";
    const [row] = await sqlRows<Record<string, unknown>>(
      this.dataSource,
      `UPDATE live_lessons SET ${[...assignments(columns), ...also, `phase_times = ${merged}`].join(', ')} WHERE id = :id RETURNING ${STATE_RETURNING}`,
      { ...columns, ...alsoParameters, phase, time: at.toISOString(), id },
    );
    if (!row) throw missing(id);
    return writtenState(this.dataSource, row);
  }

  /** Rows plus their endpoints in two queries (never one query per live lesson). */
  async load(where: FindOptionsWhere<LiveLessonEntity>): Promise<LiveLesson[]> {
    return this.withEndpoints(await this.dataSource.manager.find(LiveLessonEntity, { where, order: { createdAt: 'ASC', id: 'ASC' } }));
  }

  /**
   * `load` for the few rows of one lesson or session (the hot reads): rows and endpoints in one statement
   * (a join; each row's columns come once per endpoint, which is cheaper than a second round trip).
   */
  private async joined(where: FindOptionsWhere<LiveLessonEntity>): Promise<LiveLesson[]> {
    const rows = await this.dataSource.manager.find(LiveLessonEntity, { where, relations: { endpoints: true }, order: { createdAt: 'ASC', id: 'ASC' } });
    return rows.map((row) => toLiveLesson(row, row.endpoints ?? []));
  }

  private async withEndpoints(rows: LiveLessonEntity[]): Promise<LiveLesson[]> {
    if (rows.length === 0) return [];
    const endpoints: LiveEndpointEntity[] = [];
    for (let i = 0; i < rows.length; i += ID_CHUNK) {
      const ids = rows.slice(i, i + ID_CHUNK).map((row) => row.id);
      endpoints.push(...(await this.dataSource.manager.find(LiveEndpointEntity, { where: { liveLessonId: In(ids) } })));
    }
    const byLesson = new Map<string, LiveEndpointEntity[]>();
    for (const endpoint of endpoints) byLesson.set(endpoint.liveLessonId, [...(byLesson.get(endpoint.liveLessonId) ?? []), endpoint]);
    return rows.map((row) => toLiveLesson(row, byLesson.get(row.id) ?? []));
  }
}
