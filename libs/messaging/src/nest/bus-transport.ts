import type { AntidoteConfig } from '@antidote/config';
import type { NatsConnection } from '@nats-io/transport-node';
import { ServerNats, type CustomStrategy } from '@nestjs/microservices';
import { connectNats, natsConnectOptions } from '../nats-connection.js';
import { BusReplySerializer, BusRequestDeserializer } from './bus-wire.js';

type BusConfig = Pick<AntidoteConfig, 'natsUrl' | 'nats'>;

/**
 * Nest's NATS server, connecting the way every other connection of a service does (`connectNats`):
 * the same options, and refused credentials reported as a NatsAuthenticationError that names the
 * server, the client and the method, never the secret.
 */
export class BusServer extends ServerNats {
  private readonly config: BusConfig;
  private readonly clientName: string;

  constructor(config: BusConfig, service: string) {
    const clientName = `${service}-server`;
    super({
      ...natsConnectOptions(config, clientName),
      queue: service,
      serializer: new BusReplySerializer(),
      deserializer: new BusRequestDeserializer(),
      gracefulShutdown: true,
      gracePeriod: 500,
    });
    this.config = config;
    this.clientName = clientName;
  }

  override createNatsClient(): Promise<NatsConnection> {
    return connectNats(this.config, this.clientName);
  }
}

/** A service's NATS microservice: our plain-JSON wire format, the service's queue group, graceful drain. */
export function busMicroserviceOptions(config: BusConfig, service: string): CustomStrategy {
  return { strategy: new BusServer(config, service) };
}
