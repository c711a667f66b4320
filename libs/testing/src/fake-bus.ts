import { ErrorCodes, eventContracts, requestContracts, type EventOf, type EventSubject, type ReplyOf, type RequestOf, type RequestSubject } from '@antidote/contracts';
import { BusRequestError, parseContract, type BusClient, type RequestOptions } from '@antidote/messaging';

type Handler<S extends RequestSubject> = (payload: RequestOf<S>) => ReplyOf<S> | Promise<ReplyOf<S>>;

/**
 * An in-memory bus for unit specs, standing in for BusClient's publish and request: payloads, events
 * and replies are checked against their contracts as BusClient does; a request nobody answers fails
 * UNAVAILABLE, as it does when no service listens.
 */
export class FakeBus implements Pick<BusClient, 'publish' | 'request'> {
  readonly published: { subject: EventSubject; event: unknown; correlationId?: string }[] = [];
  readonly requests: { subject: RequestSubject; payload: unknown; options: RequestOptions }[] = [];
  private readonly handlers = new Map<RequestSubject, Handler<never>>();

  /** Answers `subject` with `handler` (its errors reach the requester as they are). */
  answer<S extends RequestSubject>(subject: S, handler: Handler<S>): void {
    this.handlers.set(subject, handler);
  }

  /** Events published on `subject`, oldest first. */
  events<S extends EventSubject>(subject: S): EventOf<S>[] {
    return this.published.filter((entry) => entry.subject === subject).map((entry) => entry.event as EventOf<S>);
  }

  publish<S extends EventSubject>(subject: S, event: EventOf<S>, correlationId?: string): void {
    const body = parseContract(eventContracts[subject], subject, event);
    this.published.push({ subject, event: body, ...(correlationId ? { correlationId } : {}) });
  }

  async request<S extends RequestSubject>(subject: S, payload: RequestOf<S>, options: RequestOptions = {}): Promise<ReplyOf<S>> {
    const contract = requestContracts[subject];
    const body = parseContract(contract.request, subject, payload) as RequestOf<S>;
    this.requests.push({ subject, payload: body, options });
    const handler = this.handlers.get(subject) as Handler<S> | undefined;
    if (!handler) throw new BusRequestError(ErrorCodes.unavailable, `no responders for ${subject}`, subject);
    return parseContract(contract.reply, `${subject} reply`, await handler(body)) as ReplyOf<S>;
  }
}
