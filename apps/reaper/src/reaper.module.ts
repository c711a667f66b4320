import { type DynamicModule, Module } from '@nestjs/common';
import type { AntidoteConfig } from '@antidote/config';

@Module({})
export class ReaperModule {
  static forRoot(_config: AntidoteConfig): DynamicModule {
    return { module: ReaperModule };
  }
}
