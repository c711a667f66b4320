import type { Msg } from '@nats-io/transport-node';
import type { ConsumerDeserializer, ConsumerSerializer, IncomingEvent, IncomingRequest } from '@nestjs/microservices';
import { decodeJson, toErrorReply } from '../bus.codec.js';

/** What a handler receives when the body was not JSON at all; `ContractPipe` turns it into an error reply. */
export class UndecodableBody {
  constructor(readonly problem: string) {}
}

/**
 * Plain-JSON wire format instead of Nest's `{pattern, data, id}` envelope, so any NATS client (antictl,
 * benchmarks, other languages) can talk to the services. A message with a reply subject is a request.
 */
export class BusRequestDeserializer implements ConsumerDeserializer {
  deserialize(message: Msg, options?: Record<string, unknown>): IncomingRequest | IncomingEvent {
    const decoded = decodeJson(message.data);
    const data = decoded.ok ? decoded.value : new UndecodableBody(decoded.problem);
    const pattern = typeof options?.channel === 'string' ? options.channel : message.subject;
    return message.reply ? { id: message.reply, pattern, data } : { pattern, data };
  }
}

interface OutgoingPacket {
  id?: string;
  response?: unknown;
  err?: unknown;
  isDisposed?: boolean;
}

/** A reply body is the handler's result as JSON, or `{error: {code, message}}`. */
export class BusReplySerializer implements ConsumerSerializer {
  serialize(packet: OutgoingPacket): { data: string } {
    if (packet.err !== undefined && packet.err !== null) return { data: JSON.stringify(toErrorReply(packet.err)) };
    return { data: JSON.stringify(packet.response ?? null) };
  }
}
