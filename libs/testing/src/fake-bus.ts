import {
  ErrorCodes,
  eventContracts,
  requestContracts,
  type EventOf,
  type EventSubject,
  type ReplyOf,
  type RequestOf,
  type RequestSubject,
} from '@antidote/contracts';
import { BusRequestError, parseContract, type BusClient, type RequestOptions } from '@antidote/messaging';

type Handler<S extends RequestSubject> = (payload: RequestOf<S>) => ReplyOf<S> | Promise<ReplyOf<S>>;

/**
 * An in-memory bus for unit specs, standing in for BusClient's publish and request: payloads, events
 * and replies are checked against their contracts as BusClient does; a request nobody answers fails
 * UNAVAILABLE, as it does when no service listens.
 */
export class FakeBus implements Pick<BusClient, 'publish' | 'request' | 'onReconnect'> {
  readonly published: { subject: EventSubject; event: unknown; correlationId?: string }[] = [];
  readonly requests: { subject: RequestSubject; payload: unknown; options: RequestOptions }[] = [];
  private readonly handlers = new Map<RequestSubject, Handler<never>>();
  private readonly reconnectListeners = new Set<() => void>();
  private connected = true;

  /** Loses the connection: publish and request fail UNAVAILABLE (as BusClient does) until `reconnect()`. */
  disconnect(): void {
    this.connected = false;
  }

  /** The connection is back: every `onReconnect` listener hears of it. */
  reconnect(): void {
    this.connected = true;
    for (const listener of this.reconnectListeners) listener();
  }

  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  /** Answers `subject` with `handler` (its errors reach the requester as they are). */
  answer<S extends RequestSubject>(subject: S, handler: Handler<S>): void {
    this.handlers.set(subject, handler);
  }

  /** Events published on `subject`, oldest first. */
  events<S extends EventSubject>(subject: S): EventOf<S>[] {
    return this.published.filter((entry) => entry.subject === subject).map((entry) => entry.event as EventOf<S>);
  }

  publish<S extends EventSubject>(subject: S, event: EventOf<S>, correlationId?: string): void {
    if (!this.connected) throw new BusRequestError(ErrorCodes.unavailable, `not connected to NATS (${subject})`, subject);
    const body = parseContract(eventContracts[subject], subject, event);
    this.published.push({ subject, event: body, ...(correlationId ? { correlationId } : {}) });
  }

  async request<S extends RequestSubject>(subject: S, payload: RequestOf<S>, options: RequestOptions = {}): Promise<ReplyOf<S>> {
    const contract = requestContracts[subject];
    const body = parseContract(contract.request, subject, payload) as RequestOf<S>;
    if (!this.connected) throw new BusRequestError(ErrorCodes.unavailable, `not connected to NATS (${subject})`, subject);
    this.requests.push({ subject, payload: body, options });
    const handler = this.handlers.get(subject) as Handler<S> | undefined;
    if (!handler) throw new BusRequestError(ErrorCodes.unavailable, `no responders for ${subject}`, subject);
    return parseContract(contract.reply, `${subject} reply`, await handler(body)) as ReplyOf<S>;
  }
}
