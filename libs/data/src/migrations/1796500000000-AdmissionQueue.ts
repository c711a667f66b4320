import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Admission: the waiting room (one ticket per learner's lab: waiting, admitted, then ended, kept an hour
 * for the wait and lifetime figures), the one-row lock its writers serialise on, and the per-address
 * token buckets of new sessions and labs (shared by every api replica).
 */
export class AdmissionQueue1796500000000 implements MigrationInterface {
  name = 'AdmissionQueue1796500000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'admission_tickets',
        columns: [
          { name: 'live_lesson_id', type: 'varchar', length: '40', isPrimary: true },
          { name: 'session_id', type: 'varchar', length: '64' },
          { name: 'client', type: 'varchar', length: '64' },
          { name: 'lesson_slug', type: 'varchar', length: '253' },
          { name: 'round', type: 'bigint' },
          { name: 'seq', type: 'bigint' },
          { name: 'enqueued_at', type: 'bigint' },
          { name: 'last_seen_at', type: 'bigint' },
          { name: 'admitted_at', type: 'bigint', isNullable: true },
          { name: 'ended_at', type: 'bigint', isNullable: true },
          { name: 'outcome', type: 'varchar', length: '16', isNullable: true },
        ],
        indices: [
          new TableIndex({ name: 'idx_admission_tickets_order', columnNames: ['admitted_at', 'ended_at', 'round', 'seq'] }),
          new TableIndex({ name: 'idx_admission_tickets_client', columnNames: ['client', 'ended_at'] }),
          new TableIndex({ name: 'idx_admission_tickets_ended', columnNames: ['ended_at'] }),
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'admission_state',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true },
          { name: 'next_seq', type: 'bigint' },
        ],
      }),
    );
    await runner.query('INSERT INTO admission_state (id, next_seq) VALUES (1, 0)');
    await runner.createTable(
      new Table({
        name: 'admission_buckets',
        columns: [
          { name: 'bucket', type: 'varchar', length: '100', isPrimary: true },
          { name: 'tokens', type: 'double precision' },
          { name: 'updated_at', type: 'bigint' },
        ],
        indices: [new TableIndex({ name: 'idx_admission_buckets_updated', columnNames: ['updated_at'] })],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('admission_buckets');
    await runner.dropTable('admission_state');
    await runner.dropTable('admission_tickets');
  }
}
