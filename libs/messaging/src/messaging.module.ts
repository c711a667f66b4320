import { type DynamicModule, Global, Inject, Injectable, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { ANTIDOTE_CONFIG, type AntidoteConfig } from '@antidote/config';
import { BusClient } from './bus.client.js';
import { NatsConnectionManager } from './nats-connection.manager.js';

export const BUS_SERVICE_NAME = Symbol.for('antidote.bus.service');

/** Drains the client connection when the app shuts down. */
@Injectable()
class BusShutdown implements OnApplicationShutdown {
  constructor(@Inject(NatsConnectionManager) private readonly manager: NatsConnectionManager) {}

  async onApplicationShutdown(): Promise<void> {
    await this.manager.drain();
  }
}

/** The bus for a service: a background-connected NATS client and a typed `BusClient` over it. */
@Global()
@Module({})
export class MessagingModule {
  static forRoot(service: string): DynamicModule {
    return {
      module: MessagingModule,
      providers: [
        { provide: BUS_SERVICE_NAME, useValue: service },
        {
          provide: NatsConnectionManager,
          inject: [ANTIDOTE_CONFIG],
          useFactory: (config: AntidoteConfig) => new NatsConnectionManager(config, `${service}-client`),
        },
        {
          provide: BusClient,
          inject: [NatsConnectionManager, ANTIDOTE_CONFIG],
          useFactory: (manager: NatsConnectionManager, config: AntidoteConfig) => {
            const logger = new Logger(`Bus:${service}`);
            return new BusClient(manager, {
              requestTimeoutMs: config.nats.requestTimeoutSeconds * 1000,
              logger: {
                warn: (message, details) => logger.warn(`${message} ${JSON.stringify(details ?? {})}`),
                error: (message, details) => logger.error(`${message} ${JSON.stringify(details ?? {})}`),
              },
            });
          },
        },
        BusShutdown,
      ],
      exports: [NatsConnectionManager, BusClient],
    };
  }
}
