import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Warm pools: `live_lessons.pool` is 1 while a row is an unclaimed pool member (built by the scheduler
 * for no learner); a claim sets it to 0 and binds the learner's session. Plain SQL that both SQLite and
 * PostgreSQL run as is (no table rebuild on SQLite).
 */
export class WarmPools1764850000000 implements MigrationInterface {
  name = 'WarmPools1764850000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE live_lessons ADD COLUMN pool integer NOT NULL DEFAULT 0');
    await runner.query('CREATE INDEX idx_live_lessons_pool ON live_lessons (pool, lesson_slug, status)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX idx_live_lessons_pool');
    await runner.query('ALTER TABLE live_lessons DROP COLUMN pool');
  }
}
