import { type DynamicModule, Global, Inject, Injectable, Logger, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDataSource, type DatabaseConfig } from './data-source.factory.js';
import { DataManager } from './data-manager.js';
import { runMigrations } from './migrate.js';

/**
 * Connects in the background (a service starts while its database is still coming up and reports
 * not-ready), migrates when configured, closes on shutdown.
 */
@Injectable()
export class DatabaseLifecycle implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Database');
  private connected = false;
  private stopped = false;

  constructor(
    @Inject(DataManager) private readonly data: DataManager,
    @Inject('ANTIDOTE_DATABASE_MIGRATE') private readonly migrateOnStart: boolean,
  ) {}

  onModuleInit(): void {
    void this.connect();
  }

  /** Connected and answering. */
  async isReady(): Promise<boolean> {
    return this.connected && (await this.data.ping());
  }

  private async connect(): Promise<void> {
    for (let attempt = 0; !this.stopped; attempt++) {
      try {
        if (!this.data.dataSource.isInitialized) await this.data.dataSource.initialize();
        if (this.migrateOnStart) {
          const applied = await runMigrations(this.data.dataSource);
          if (applied.length > 0) this.logger.log(`applied migrations: ${applied.join(', ')}`);
        }
        this.connected = true;
        return;
      } catch (error) {
        if (attempt % 10 === 0) this.logger.warn(`database not available yet: ${error instanceof Error ? error.message : String(error)}`);
        await sleep(Math.min(5000, 200 * 2 ** Math.min(attempt, 5)));
      }
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.data.close();
  }
}

@Global()
@Module({})
export class DataModule {
  static forRoot(config: { database: DatabaseConfig }): DynamicModule {
    return {
      module: DataModule,
      providers: [
        { provide: DataManager, useFactory: () => new DataManager(createDataSource(config.database)) },
        { provide: 'ANTIDOTE_DATABASE_MIGRATE', useValue: config.database.migrateOnStart },
        DatabaseLifecycle,
      ],
      exports: [DataManager, DatabaseLifecycle],
    };
  }
}
