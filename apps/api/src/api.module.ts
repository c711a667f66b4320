import { type DynamicModule, Module } from '@nestjs/common';
import type { AntidoteConfig } from '@antidote/config';

@Module({})
export class ApiModule {
  static forRoot(_config: AntidoteConfig): DynamicModule {
    return { module: ApiModule };
  }
}
