import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DatabaseLifecycle, DataManager, onStatement } from '@antidote/data';
import { MetricsService } from './metrics.service.js';
import { ReadinessRegistry } from './readiness.js';

/**
 * Readiness `database`: the data source is connected and migrated (add to the providers of a module
 * importing DataModule); and `antidote_database_statements_total`, every statement the service sends.
 */
@Injectable()
export class DatabaseReadiness implements OnModuleInit, OnModuleDestroy {
  private stopCounting = (): void => undefined;

  constructor(
    @Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry,
    @Inject(DatabaseLifecycle) private readonly database: DatabaseLifecycle,
    @Inject(DataManager) private readonly data: DataManager,
    @Inject(MetricsService) private readonly metrics: MetricsService,
  ) {}

  onModuleInit(): void {
    this.readiness.register('database', () => this.database.isReady());
    const statements = this.metrics.counter({
      name: 'antidote_database_statements_total',
      help: 'Statements sent to the database (BEGIN and COMMIT included)',
    });
    this.stopCounting = onStatement(this.data.dataSource, () => statements.inc());
  }

  onModuleDestroy(): void {
    this.stopCounting();
  }
}
