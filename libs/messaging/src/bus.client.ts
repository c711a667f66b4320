import {
  eventContracts,
  requestContracts,
  type EventOf,
  type EventSubject,
  type ReplyOf,
  type RequestOf,
  type RequestSubject,
  ErrorCodes,
} from '@antidote/contracts';
import { errors, type Msg, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { fixedConnection, type ConnectionSource } from './nats-connection.manager.js';
import { decodeJson, isErrorReply, parseContract } from './bus.codec.js';
import { BusRequestError, ContractViolationError } from './bus.error.js';
import { inBusSpan } from './spans.js';
import { correlationIdOf, incomingContext, outgoingHeaders } from './trace-headers.js';

export interface BusLogger {
  warn(message: string, details?: Record<string, unknown>): void;
  error(message: string, details?: Record<string, unknown>): void;
}

export interface RequestOptions {
  timeoutMs?: number;
  correlationId?: string;
}

/** One request this client made: its subject, `ok` or the error code it ended with, and how long it took. */
export interface BusRequestEvent {
  subject: string;
  outcome: string;
  seconds: number;
}

export interface EventMeta {
  subject: string;
  correlationId?: string;
}

const encoder = new TextEncoder();

/**
 * Typed publisher/requester over one NATS connection. Every payload is checked against its subject's
 * contract on the way out and every reply on the way in, so both ends agree at compile and run time.
 */
export class BusClient {
  private readonly source: ConnectionSource;
  private readonly observers: ((event: BusRequestEvent) => void)[] = [];

  constructor(
    source: ConnectionSource | NatsConnection,
    private readonly defaults: { requestTimeoutMs: number; logger?: BusLogger },
  ) {
    this.source = 'current' in source ? source : fixedConnection(source);
  }

  /** The connection now; a BusRequestError UNAVAILABLE while NATS is down. */
  private connection(subject: string): NatsConnection {
    const connection = this.source.current();
    if (!connection) throw new BusRequestError(ErrorCodes.unavailable, `not connected to NATS (${subject})`, subject);
    return connection;
  }

  /** Calls `listener` each time the connection is back after an outage (not on the first connect); returns the unsubscribe function. */
  onReconnect(listener: () => void): () => void {
    return this.source.watch?.((change) => (change === 'reconnect' ? listener() : undefined)) ?? (() => undefined);
  }

  /** Calls `observer` after every request (metrics: NATS request latency and errors). */
  observe(observer: (event: BusRequestEvent) => void): void {
    this.observers.push(observer);
  }

  async request<S extends RequestSubject>(subject: S, payload: RequestOf<S>, options: RequestOptions = {}): Promise<ReplyOf<S>> {
    const started = performance.now();
    let outcome = 'ok';
    try {
      return await inBusSpan('request', subject, () => this.requestInSpan(subject, payload, options));
    } catch (error) {
      outcome = error instanceof BusRequestError ? error.code : error instanceof ContractViolationError ? ErrorCodes.invalidPayload : 'ERROR';
      throw error;
    } finally {
      const event = { subject, outcome, seconds: (performance.now() - started) / 1000 };
      for (const observer of this.observers) {
        try {
          observer(event);
        } catch {
          // An observer (metrics) never fails the request it watched.
        }
      }
    }
  }

  private async requestInSpan<S extends RequestSubject>(subject: S, payload: RequestOf<S>, options: RequestOptions): Promise<ReplyOf<S>> {
    const contract = requestContracts[subject];
    const body = parseContract(contract.request, subject, payload) as unknown;
    let reply: Msg;
    const lost = this.connectionLost(subject);
    try {
      const sent = this.connection(subject).request(subject, encoder.encode(JSON.stringify(body)), {
        timeout: options.timeoutMs ?? this.defaults.requestTimeoutMs,
        headers: outgoingHeaders(options.correlationId),
      });
      sent.catch(() => undefined);
      reply = await Promise.race([sent, lost.promise]);
    } catch (error) {
      throw this.requestFailure(subject, error);
    } finally {
      lost.dispose();
    }
    const decoded = decodeJson(reply.data);
    if (!decoded.ok) throw new BusRequestError(ErrorCodes.invalidPayload, `reply ${decoded.problem}`, subject);
    if (isErrorReply(decoded.value)) {
      const { code, message, issues } = decoded.value.error;
      throw new BusRequestError(code, message, subject, issues);
    }
    return parseContract(contract.reply, `${subject} reply`, decoded.value) as ReplyOf<S>;
  }

  publish<S extends EventSubject>(subject: S, event: EventOf<S>, correlationId?: string): void {
    const body: unknown = parseContract(eventContracts[subject], subject, event);
    inBusSpan('publish', subject, () =>
      this.connection(subject).publish(subject, encoder.encode(JSON.stringify(body)), { headers: outgoingHeaders(correlationId) }),
    );
  }

  /**
   * Calls `handler` for every valid event on `subject` (queue group optional). Invalid events are
   * logged and dropped; a failing handler is logged — neither stops the subscription.
   */
  async subscribe<S extends EventSubject>(
    subject: S,
    handler: (event: EventOf<S>, meta: EventMeta) => void | Promise<void>,
    options: { queue?: string } = {},
  ): Promise<Subscription> {
    const schema = eventContracts[subject];
    const connection = await this.source.connected();
    return connection.subscribe(subject, {
      ...(options.queue ? { queue: options.queue } : {}),
      callback: (error, message) => {
        if (error) {
          this.defaults.logger?.error('subscription error', { subject, error: error.message });
          return;
        }
        const decoded = decodeJson(message.data);
        const parsed = decoded.ok ? schema.safeParse(decoded.value) : undefined;
        if (!parsed?.success) {
          this.defaults.logger?.warn('dropped an invalid event', { subject, problem: decoded.ok ? parsed?.error.message : decoded.problem });
          return;
        }
        const meta: EventMeta = { subject, correlationId: correlationIdOf(message.headers) };
        void inBusSpan('receive', subject, async () => handler(parsed.data as EventOf<S>, meta), incomingContext(message.headers)).catch((failure: unknown) =>
          this.defaults.logger?.error('event handler failed', { subject, error: failure instanceof Error ? failure.message : String(failure) }),
        );
      },
    });
  }

  /**
   * Rejects UNAVAILABLE when the connection drops: a reply sent meanwhile is lost, so the caller hears at
   * once (and may ask again once connected) instead of waiting out its whole timeout.
   */
  private connectionLost(subject: string): { promise: Promise<never>; dispose: () => void } {
    let dispose = (): void => undefined;
    const promise = new Promise<never>((_, reject) => {
      dispose =
        this.source.watch?.((change) => {
          if (change === 'disconnect')
            reject(new BusRequestError(ErrorCodes.unavailable, `the NATS connection dropped while waiting for the reply to ${subject}`, subject));
        }) ?? dispose;
    });
    promise.catch(() => undefined);
    return { promise, dispose };
  }

  private requestFailure(subject: string, error: unknown): Error {
    if (error instanceof ContractViolationError || error instanceof BusRequestError) return error;
    if (error instanceof errors.RequestError && error.isNoResponders()) {
      return new BusRequestError(ErrorCodes.unavailable, `no service answers ${subject}`, subject);
    }
    if (error instanceof errors.TimeoutError || (error instanceof Error && error.cause instanceof errors.TimeoutError)) {
      return new BusRequestError(ErrorCodes.timeout, `no reply to ${subject} in time`, subject);
    }
    const message = error instanceof Error ? error.message : String(error);
    return new BusRequestError(ErrorCodes.unavailable, `request ${subject} failed: ${message}`, subject);
  }
}
