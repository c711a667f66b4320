import { Table, TableForeignKey, TableIndex, TableUnique, type MigrationInterface, type QueryRunner } from 'typeorm';
import type { TableColumnOptions } from 'typeorm/schema-builder/options/TableColumnOptions.js';

const text = (name: string, nullable = false): TableColumnOptions => ({ name, type: 'text', isNullable: nullable });
const key = (name: string, length: number): TableColumnOptions => ({ name, type: 'varchar', length: String(length), isPrimary: true });
const varchar = (name: string, length: number, nullable = false): TableColumnOptions => ({
  name,
  type: 'varchar',
  length: String(length),
  isNullable: nullable,
});
const int = (name: string, nullable = false): TableColumnOptions => ({ name, type: 'integer', isNullable: nullable });
const time = (name: string, nullable = false): TableColumnOptions => ({ name, type: 'bigint', isNullable: nullable });

/** The first schema: curriculum, live sessions, live lessons and their endpoints. Same on SQLite and PostgreSQL. */
export class InitialSchema1764670000000 implements MigrationInterface {
  name = 'InitialSchema1764670000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'curriculum',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true },
          text('name'),
          text('description'),
          text('website'),
          text('a_ver'),
          text('git_root'),
          time('imported_at'),
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'collections',
        columns: [
          key('slug', 253),
          text('title'),
          text('image'),
          text('website'),
          text('contact_email'),
          text('brief_description'),
          text('long_description'),
          varchar('type', 32),
          varchar('tier', 16),
          text('collection_file'),
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'images',
        columns: [
          key('slug', 253),
          text('description'),
          varchar('flavor', 16),
          int('enable_forwarding'),
          text('network_interfaces'),
          text('ssh_user'),
          text('ssh_password'),
          text('config_user'),
          text('config_password'),
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'lessons',
        columns: [
          key('slug', 253),
          text('name'),
          varchar('category', 32),
          text('diagram'),
          text('video'),
          varchar('tier', 16),
          text('collection'),
          text('description'),
          text('short_description'),
          text('prereqs'),
          text('tags'),
          text('stages'),
          text('endpoints'),
          text('connections'),
          text('authors'),
          int('ready_delay'),
          text('lesson_file'),
          text('lesson_dir'),
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'live_sessions',
        columns: [key('id', 64), varchar('source_ip', 64), int('persistent'), time('created_at'), time('last_active_at')],
        indices: [new TableIndex({ name: 'idx_live_sessions_source_ip', columnNames: ['source_ip'] })],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'live_lessons',
        columns: [
          key('id', 40),
          varchar('session_id', 64),
          varchar('antidote_id', 63),
          varchar('lesson_slug', 253),
          int('current_stage'),
          varchar('guide_type', 16),
          text('guide_contents'),
          text('guide_domain'),
          varchar('status', 16),
          int('error'),
          text('failure_reason', true),
          int('healthy_tests'),
          int('total_tests'),
          time('created_at'),
          time('last_active_at'),
          time('updated_at'),
          text('phase_times'),
          int('configured_stage', true),
          time('delete_requested_at', true),
          varchar('claimed_by', 128, true),
          time('claimed_until', true),
        ],
        uniques: [new TableUnique({ name: 'uq_live_lessons_session_lesson', columnNames: ['session_id', 'lesson_slug'] })],
        indices: [
          new TableIndex({ name: 'idx_live_lessons_session', columnNames: ['session_id'] }),
          new TableIndex({ name: 'idx_live_lessons_status', columnNames: ['status', 'error'] }),
          new TableIndex({ name: 'idx_live_lessons_last_active', columnNames: ['last_active_at'] }),
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'live_endpoints',
        columns: [
          key('live_lesson_id', 40),
          key('name', 63),
          int('position'),
          text('image'),
          text('ports'),
          text('presentations'),
          varchar('configuration_type', 16),
          text('configuration_file'),
          text('ssh_user'),
          text('ssh_password'),
          varchar('host', 64, true),
        ],
        foreignKeys: [
          new TableForeignKey({ columnNames: ['live_lesson_id'], referencedTableName: 'live_lessons', referencedColumnNames: ['id'], onDelete: 'CASCADE' }),
        ],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['live_endpoints', 'live_lessons', 'live_sessions', 'lessons', 'images', 'collections', 'curriculum']) {
      await runner.dropTable(table);
    }
  }
}
