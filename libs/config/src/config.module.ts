import { type DynamicModule, Global, Inject, Module } from '@nestjs/common';
import type { AntidoteConfig } from './config.types.js';

/** DI token of the resolved `AntidoteConfig`. */
export const ANTIDOTE_CONFIG = Symbol.for('antidote.config');

/** Inject the configuration: `constructor(@InjectConfig() config: AntidoteConfig)`. */
export const InjectConfig = (): ParameterDecorator => Inject(ANTIDOTE_CONFIG);

/** Makes the configuration loaded at boot available to every module. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AntidoteConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: ANTIDOTE_CONFIG, useValue: config }],
      exports: [ANTIDOTE_CONFIG],
    };
  }
}
