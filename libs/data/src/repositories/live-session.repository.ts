import { DataErrorCodes } from '@antidote/contracts';
import { LessThan, type DataSource } from 'typeorm';
import { DuplicateError, isUniqueViolation, NotFoundError } from '../data.errors.js';
import { assignments, selectEntities, sqlCount, sqlRows, toColumns } from '../sql.js';
import { LiveSessionEntity } from '../entities/index.js';
import type { LiveSession, NewLiveSession } from '../live.types.js';

const toSession = (entity: LiveSessionEntity): LiveSession => ({ ...entity });

/** Live sessions (written by the api, expired by the reaper). */
export class LiveSessionRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly now: () => Date,
  ) {}

  async create(session: NewLiveSession): Promise<LiveSession> {
    const at = session.createdAt ?? this.now();
    const entity: LiveSessionEntity = { id: session.id, sourceIp: session.sourceIp, persistent: session.persistent ?? false, createdAt: at, lastActiveAt: at };
    try {
      await sqlRows(
        this.dataSource,
        'INSERT INTO live_sessions (id, source_ip, persistent, created_at, last_active_at) VALUES (:id, :source_ip, :persistent, :created_at, :last_active_at) RETURNING id',
        toColumns(this.dataSource, LiveSessionEntity, entity),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw new DuplicateError(`LiveSession ${session.id} already exists`, DataErrorCodes.idTaken);
      throw error;
    }
    return toSession(entity);
  }

  async get(id: string): Promise<LiveSession> {
    const session = await this.find(id);
    if (!session) throw new NotFoundError(`Unable to find liveSession ${id}`);
    return session;
  }

  async find(id: string): Promise<LiveSession | undefined> {
    const [entity] = await selectEntities(this.dataSource, LiveSessionEntity, 'id = :id', { id });
    return entity ? toSession(entity) : undefined;
  }

  async list(): Promise<LiveSession[]> {
    return (await this.dataSource.manager.find(LiveSessionEntity, { order: { createdAt: 'ASC' } })).map(toSession);
  }

  async countForIp(sourceIp: string): Promise<number> {
    return sqlCount(this.dataSource, 'FROM live_sessions WHERE source_ip = :sourceIp', { sourceIp });
  }

  async updatePersistence(id: string, persistent: boolean): Promise<void> {
    await this.update(id, { persistent });
  }

  async touch(id: string, at: Date = this.now()): Promise<void> {
    await this.update(id, { lastActiveAt: at });
  }

  /** Idempotent. */
  async delete(id: string): Promise<void> {
    await this.dataSource.manager.delete(LiveSessionEntity, { id });
  }

  /** Sessions idle since before `cutoff` and not persistent: candidates for `deleteIfIdle`. */
  async findIdle(cutoff: Date): Promise<LiveSession[]> {
    const rows = await this.dataSource.manager.find(LiveSessionEntity, { where: { lastActiveAt: LessThan(cutoff), persistent: false } });
    return rows.map(toSession);
  }

  /**
   * Deletes the session only if, at the moment of the delete, it is still idle, not persistent and has
   * no live lessons — one guarded statement, so a live lesson created meanwhile keeps it alive.
   */
  async deleteIfIdle(id: string, cutoff: Date): Promise<boolean> {
    const result = await this.dataSource
      .createQueryBuilder()
      .delete()
      .from(LiveSessionEntity)
      .where('id = :id', { id })
      .andWhere('last_active_at < :cutoff', { cutoff: cutoff.getTime() })
      .andWhere('persistent = 0')
      .andWhere('NOT EXISTS (SELECT 1 FROM live_lessons ll WHERE ll.session_id = :id)', { id })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** One UPDATE of these properties (through their columns' transformers); a missing session is a NotFoundError. */
  private async update(id: string, values: Partial<LiveSessionEntity>): Promise<void> {
    const columns = toColumns(this.dataSource, LiveSessionEntity, values);
    const rows = await sqlRows(this.dataSource, `UPDATE live_sessions SET ${assignments(columns).join(', ')} WHERE id = :id RETURNING id`, { ...columns, id });
    if (rows.length === 0) throw new NotFoundError(`LiveSession ${id} doesn't exist; cannot update`);
  }
}
