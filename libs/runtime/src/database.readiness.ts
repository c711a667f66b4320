import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DatabaseLifecycle } from '@antidote/data';
import { ReadinessRegistry } from './readiness.js';

/** Readiness `database`: the data source is connected and migrated (add to the providers of a module importing DataModule). */
@Injectable()
export class DatabaseReadiness implements OnModuleInit {
  constructor(
    @Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry,
    @Inject(DatabaseLifecycle) private readonly database: DatabaseLifecycle,
  ) {}

  onModuleInit(): void {
    this.readiness.register('database', () => this.database.isReady());
  }
}
