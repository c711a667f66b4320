import type { BootStage } from './boot-profile.js';

/** Connections one port of an endpoint accepted in one boot stage: how many, the first and the last (epoch ms). */
export interface StageConnections {
  count: number;
  firstAt: number;
  lastAt: number;
}

/** Per port (as a string key, as JSON has it), per boot stage. */
export type EndpointConnections = Record<string, Partial<Record<BootStage, StageConnections>>>;

/**
 * How many connections each endpoint (pod or Service uid) accepted, by port and by the boot stage it was
 * in: what a health checker's probes cost a device while it booted, and after. Bounded per endpoint
 * (ports × stages), forgotten with the endpoint.
 */
export class ConnectionLog {
  private readonly byOwner = new Map<string, EndpointConnections>();

  record(owner: string, port: number, stage: BootStage, at = Date.now()): void {
    const ports = this.byOwner.get(owner) ?? {};
    this.byOwner.set(owner, ports);
    const stages = (ports[String(port)] ??= {});
    const entry = stages[stage];
    if (entry) {
      entry.count++;
      entry.lastAt = at;
    } else stages[stage] = { count: 1, firstAt: at, lastAt: at };
  }

  of(owner: string): EndpointConnections {
    return this.byOwner.get(owner) ?? {};
  }

  forget(owner: string): void {
    this.byOwner.delete(owner);
  }
}
