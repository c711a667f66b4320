import type { KubeObject } from '../api/object.js';
import type { ResourceHandler } from '../api/resource-handler.js';
import type { ResourceRegistry, ResourceType } from '../api/resources.js';
import { resourceKey, type ObjectStore } from '../api/store.js';
import type { AddressPool } from '../endpoints/address-pool.js';
import type { EndpointExposure } from '../endpoints/endpoint-exposure.js';
import type { Faults } from '../faults.js';

export { now } from '../pods/pod-lifecycle.js';

/** What the simulated controllers share. */
export class SimContext {
  /** Timers of controllers, cleared on stop. */
  private readonly timers = new Set<NodeJS.Timeout>();
  stopped = false;

  constructor(
    readonly store: ObjectStore,
    readonly registry: ResourceRegistry,
    readonly handler: ResourceHandler,
    readonly faults: Faults,
    readonly endpoints: EndpointExposure,
    readonly podAddresses: AddressPool,
    readonly serviceAddresses: AddressPool,
    readonly log: (message: string) => void,
  ) {}

  type(group: string, plural: string): ResourceType {
    const type = this.registry.all().find((candidate) => candidate.group === group && candidate.plural === plural);
    if (!type) throw new Error(`unknown resource ${group}/${plural}`);
    return type;
  }

  /** Applies `change` to the stored object (if it still exists) and stores it, emitting MODIFIED. */
  mutate(type: ResourceType, namespace: string | undefined, name: string, change: (object: KubeObject) => void): KubeObject | undefined {
    const current = this.store.get(resourceKey(type), namespace, name);
    if (!current) return undefined;
    change(current);
    return this.store.replace(resourceKey(type), current);
  }

  /** A controller step after `ms` (0: on the next turn, so watchers see each state). */
  later(ms: number, step: () => void): void {
    if (this.stopped) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        if (this.stopped) return;
        try {
          step();
        } catch (error) {
          this.log(`controller step failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      },
      Math.max(1, ms),
    );
    this.timers.add(timer);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
