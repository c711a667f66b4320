import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

const readiness = (): TableColumn => new TableColumn({ name: 'readiness', type: 'text', isNullable: true });

/** An image's optional readiness check (JSON), copied onto each live endpoint when its row is written. Null: none. */
export class AddReadinessChecks1796396031608 implements MigrationInterface {
  name = 'AddReadinessChecks1796396031608';

  async up(runner: QueryRunner): Promise<void> {
    await runner.addColumn('images', readiness());
    await runner.addColumn('live_endpoints', readiness());
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropColumn('live_endpoints', 'readiness');
    await runner.dropColumn('images', 'readiness');
  }
}
