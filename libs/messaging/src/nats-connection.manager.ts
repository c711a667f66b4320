import type { NatsConnection } from '@nats-io/transport-node';
import type { AntidoteConfig } from '@antidote/config';
import { connectNats } from './nats-connection.js';

/** Where a BusClient gets its connection: it may not exist yet, and may be down for a while. */
export interface ConnectionSource {
  /** The connection when connected now, else undefined. */
  current(): NatsConnection | undefined;
  /** Resolves once connected (the first time). */
  connected(): Promise<NatsConnection>;
  /** Calls `listener` when the connection drops and when it comes back; returns the unsubscribe function. */
  watch?(listener: (change: ConnectionChange) => void): () => void;
}

export type ConnectionChange = 'disconnect' | 'reconnect';

/** A ConnectionSource over a connection that already exists (tools, tests). */
export const fixedConnection = (connection: NatsConnection): ConnectionSource => ({
  current: () => (connection.isClosed() ? undefined : connection),
  connected: () => Promise.resolve(connection),
});

/**
 * Owns a service's client connection: connects in the background (a service starts, and answers its
 * health probes, while NATS is still down), tracks disconnects for readiness, drains on shutdown.
 */
export class NatsConnectionManager implements ConnectionSource {
  private connection?: NatsConnection;
  private up = false;
  private closing = false;
  private readonly ready: Promise<NatsConnection>;
  private readonly listeners = new Set<(change: ConnectionChange) => void>();

  constructor(config: Pick<AntidoteConfig, 'natsUrl' | 'nats'>, name: string, connect = connectNats) {
    this.ready = connect(config, name).then((connection) => {
      this.connection = connection;
      this.up = true;
      void this.track(connection);
      return connection;
    });
    // Failures surface through connected(); an unobserved rejection must not kill the process.
    this.ready.catch(() => undefined);
  }

  current(): NatsConnection | undefined {
    return this.up && !this.closing ? this.connection : undefined;
  }

  connected(): Promise<NatsConnection> {
    return this.ready;
  }

  isConnected(): boolean {
    return this.current() !== undefined;
  }

  watch(listener: (change: ConnectionChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Lets in-flight messages finish, then closes. */
  async drain(): Promise<void> {
    this.closing = true;
    const connection = this.connection;
    if (!connection || connection.isClosed()) return;
    try {
      await connection.drain();
    } catch {
      await connection.close();
    }
  }

  private async track(connection: NatsConnection): Promise<void> {
    for await (const status of connection.status()) {
      if (status.type !== 'disconnect' && status.type !== 'reconnect') continue;
      this.up = status.type === 'reconnect';
      for (const listener of this.listeners) {
        try {
          listener(status.type);
        } catch {
          // One listener's failure is its own; the others still hear of the change.
        }
      }
    }
    this.up = false;
  }
}
