import type { AntidoteConfig } from '@antidote/config';
import { Transport, type NatsOptions } from '@nestjs/microservices';
import { natsConnectOptions } from '../nats-connection.js';
import { BusReplySerializer, BusRequestDeserializer } from './bus-wire.js';

/** Options of a service's NATS microservice: our plain-JSON wire format, a default queue group, graceful drain. */
export function busMicroserviceOptions(config: Pick<AntidoteConfig, 'natsUrl' | 'nats'>, service: string): NatsOptions {
  return {
    transport: Transport.NATS,
    options: {
      ...natsConnectOptions(config, `${service}-server`),
      queue: service,
      serializer: new BusReplySerializer(),
      deserializer: new BusRequestDeserializer(),
      gracefulShutdown: true,
      gracePeriod: 500,
    },
  };
}
