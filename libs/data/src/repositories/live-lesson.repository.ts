import { inTransaction } from '../transaction.js';
import { In, type DataSource, type EntityManager, type FindOptionsWhere } from 'typeorm';
import { DataErrorCodes, LiveLessonStatus, phaseTimeKeyOf } from '@antidote/contracts';
import type { GuideType } from '@antidote/curriculum';
import { DuplicateError, isUniqueViolation, NotFoundError } from '../data.errors.js';
import { LiveEndpointEntity, LiveLessonEntity } from '../entities/index.js';
import { endpointEntity, toLiveLesson } from '../live-lesson.mapper.js';
import type { LiveEndpoint, LiveLesson, LiveLessonFilter, LiveLessonState, NewLiveLesson } from '../live.types.js';

/** Ids per IN (…) list: well under both databases' parameter limits. */
const ID_CHUNK = 500;

const STATE_COLUMNS = {
  id: true,
  sessionId: true,
  lessonSlug: true,
  status: true,
  error: true,
  failureReason: true,
  currentStage: true,
  healthyTests: true,
  totalTests: true,
  phaseTimes: true,
} as const satisfies Partial<Record<keyof LiveLessonState, true>>;

const missing = (id: string): NotFoundError => new NotFoundError(`Livelesson ${id} doesn't exist; cannot update`);

/** Live lessons and their endpoints. Every update targets its columns only (no read-modify-write). */
export class LiveLessonRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly now: () => Date,
  ) {}

  /** Inserts the row and its endpoints in one transaction; a duplicate id or (session, lesson) is a DuplicateError. */
  async create(lesson: NewLiveLesson): Promise<LiveLesson> {
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
    };
    try {
      await inTransaction(this.dataSource, async (manager) => {
        await manager.insert(LiveLessonEntity, entity);
        if (endpoints.length > 0) await manager.insert(LiveEndpointEntity, endpoints.map((endpoint) => endpointEntity(lesson.id, endpoint)));
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const existing = await this.find(lesson.id);
      throw existing
        ? new DuplicateError(`Livelesson ${lesson.id} already exists`, DataErrorCodes.idTaken)
        : new DuplicateError(`Session ${lesson.sessionId} already has a live lesson of ${lesson.lessonSlug}`, DataErrorCodes.duplicate);
    }
    return this.get(lesson.id);
  }

  async get(id: string): Promise<LiveLesson> {
    const lesson = await this.find(id);
    if (!lesson) throw new NotFoundError(`Unable to find liveLesson ${id}`);
    return lesson;
  }

  async find(id: string): Promise<LiveLesson | undefined> {
    const [lesson] = await this.load({ id });
    return lesson;
  }

  /** The row's state alone (one narrow query: no endpoints, no guide), for checking an event against it. */
  async findState(id: string): Promise<LiveLessonState | undefined> {
    const row = await this.dataSource.manager.findOne(LiveLessonEntity, { select: STATE_COLUMNS, where: { id } });
    if (!row) return undefined;
    const { failureReason, ...state } = row;
    return { ...state, status: row.status as LiveLessonStatus, ...(failureReason !== null ? { failureReason } : {}) };
  }

  async findForSession(sessionId: string, lessonSlug: string): Promise<LiveLesson | undefined> {
    const [lesson] = await this.load({ sessionId, lessonSlug });
    return lesson;
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
    const rows = await this.dataSource.manager.find(LiveLessonEntity, { select: { id: true }, where: { sessionId }, order: { createdAt: 'ASC' } });
    return rows.map((row) => row.id);
  }

  /** Every live lesson id (one light query: the reaper compares it with the namespaces). */
  async ids(): Promise<string[]> {
    const rows = await this.dataSource.manager.find(LiveLessonEntity, { select: { id: true } });
    return rows.map((row) => row.id);
  }

  async count(filter: { statuses?: LiveLessonStatus[]; error?: boolean } = {}): Promise<number> {
    const where: FindOptionsWhere<LiveLessonEntity> = {};
    if (filter.statuses) where.status = In(filter.statuses);
    if (filter.error !== undefined) where.error = filter.error;
    return this.dataSource.manager.countBy(LiveLessonEntity, where);
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
   * Sets the status and records when the phase began; returns the live lesson as written (read in the
   * same transaction, so the caller needs no second read to publish it).
   */
  async updateStatus(id: string, status: LiveLessonStatus): Promise<LiveLesson> {
    const at = this.now();
    return inTransaction(this.dataSource, async (manager) => {
      const [lesson] = await this.load({ id }, manager);
      if (!lesson) throw missing(id);
      const phaseTimes = { ...lesson.phaseTimes, [phaseTimeKeyOf[status]]: at.toISOString() };
      await manager.update(LiveLessonEntity, { id }, { status, updatedAt: at, phaseTimes });
      return { ...lesson, status, updatedAt: at, phaseTimes };
    });
  }

  /** Error flag, a human-readable reason, and when it failed. */
  async markFailed(id: string, reason: string): Promise<void> {
    const at = this.now();
    await inTransaction(this.dataSource, async (manager) => {
      const row = await manager.findOne(LiveLessonEntity, { select: { id: true, phaseTimes: true }, where: { id } });
      if (!row) throw missing(id);
      await manager.update(LiveLessonEntity, { id }, { error: true, failureReason: reason, updatedAt: at, phaseTimes: { ...row.phaseTimes, failedAt: at.toISOString() } });
    });
  }

  /** Writes endpoints' Service addresses (endpoint name → host); an unknown endpoint name changes nothing (original behaviour). */
  async updateEndpointHosts(id: string, hosts: ReadonlyMap<string, string>): Promise<void> {
    if (!(await this.exists(id))) throw missing(id);
    for (const [endpointName, host] of hosts) await this.dataSource.manager.update(LiveEndpointEntity, { liveLessonId: id, name: endpointName }, { host });
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
    return this.dataSource.manager.existsBy(LiveLessonEntity, { id });
  }

  private async update(id: string, values: Partial<Omit<LiveLessonEntity, 'endpoints'>>): Promise<void> {
    const result = await this.dataSource.manager.update(LiveLessonEntity, { id }, { ...values, updatedAt: this.now() });
    if (!result.affected) throw missing(id);
  }

  /** Rows plus their endpoints in two queries (never one query per live lesson). */
  async load(where: FindOptionsWhere<LiveLessonEntity> | string, manager: EntityManager = this.dataSource.manager): Promise<LiveLesson[]> {
    const rows =
      typeof where === 'string'
        ? await manager.createQueryBuilder(LiveLessonEntity, 'll').where(where).orderBy('ll.created_at', 'ASC').addOrderBy('ll.id', 'ASC').getMany()
        : await manager.find(LiveLessonEntity, { where, order: { createdAt: 'ASC', id: 'ASC' } });
    if (rows.length === 0) return [];
    const endpoints: LiveEndpointEntity[] = [];
    for (let i = 0; i < rows.length; i += ID_CHUNK) {
      const ids = rows.slice(i, i + ID_CHUNK).map((row) => row.id);
      endpoints.push(...(await manager.find(LiveEndpointEntity, { where: { liveLessonId: In(ids) } })));
    }
    const byLesson = new Map<string, LiveEndpointEntity[]>();
    for (const endpoint of endpoints) byLesson.set(endpoint.liveLessonId, [...(byLesson.get(endpoint.liveLessonId) ?? []), endpoint]);
    return rows.map((row) => toLiveLesson(row, byLesson.get(row.id) ?? []));
  }
}
