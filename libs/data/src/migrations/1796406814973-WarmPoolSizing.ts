import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Warm-pool sizing: an operator's size per pool (`antictl pool resize`, shared by every scheduler replica
 * and kept across restarts) and the demand per pooled lesson and minute (claims and misses, recorded by
 * the api), which adaptive pools are sized from.
 */
export class WarmPoolSizing1796406814973 implements MigrationInterface {
  name = 'WarmPoolSizing1796406814973';

  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'warm_pool_overrides',
        columns: [
          { name: 'lesson_slug', type: 'varchar', length: '253', isPrimary: true },
          { name: 'size', type: 'integer' },
          { name: 'max_age', type: 'integer', isNullable: true },
          { name: 'updated_at', type: 'bigint' },
        ],
      }),
    );
    await runner.createTable(
      new Table({
        name: 'warm_pool_demand',
        columns: [
          { name: 'lesson_slug', type: 'varchar', length: '253', isPrimary: true },
          { name: 'bucket_start', type: 'bigint', isPrimary: true },
          { name: 'hits', type: 'integer', default: 0 },
          { name: 'misses', type: 'integer', default: 0 },
        ],
      }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('warm_pool_demand');
    await runner.dropTable('warm_pool_overrides');
  }
}
