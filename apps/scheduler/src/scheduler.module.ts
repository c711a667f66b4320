import { type DynamicModule, Module } from '@nestjs/common';
import type { AntidoteConfig } from '@antidote/config';

@Module({})
export class SchedulerModule {
  static forRoot(_config: AntidoteConfig): DynamicModule {
    return { module: SchedulerModule };
  }
}
