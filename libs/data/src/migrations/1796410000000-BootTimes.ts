import { Table, TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Boot times: when each live endpoint was first found up during its lesson's start (the healthchecker's
 * state, which a restarted healthchecker resumes from), the expected time a start reaches READY, and the
 * recent starts the expectation is drawn from (they outlive their live lessons).
 */
export class BootTimes1796410000000 implements MigrationInterface {
  name = 'BootTimes1796410000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn('live_endpoints', new TableColumn({ name: 'up_at', type: 'bigint', isNullable: true }));
    await runner.addColumn('live_lessons', new TableColumn({ name: 'estimated_ready_at', type: 'bigint', isNullable: true }));
    await runner.createTable(
      new Table({
        name: 'lesson_starts',
        columns: [
          { name: 'live_lesson_id', type: 'varchar', length: '40', isPrimary: true },
          { name: 'lesson_slug', type: 'varchar', length: '253' },
          { name: 'ready_at', type: 'bigint' },
          { name: 'provision_ms', type: 'integer' },
          { name: 'configure_ms', type: 'integer' },
          { name: 'boot_ms', type: 'text' },
        ],
        indices: [new TableIndex({ name: 'idx_lesson_starts_ready_at', columnNames: ['ready_at'] })],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('lesson_starts');
    await runner.dropColumn('live_lessons', 'estimated_ready_at');
    await runner.dropColumn('live_endpoints', 'up_at');
  }
}
