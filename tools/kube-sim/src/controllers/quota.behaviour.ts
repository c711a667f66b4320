import type { KindBehaviour } from '../api/behaviour.js';
import { formatQuantity } from './quantity.js';
import { namespaceUsage } from './pod-admission.js';
import type { SimContext } from './sim-context.js';

/**
 * The resource quota controller: a moment after a ResourceQuota is written, status.hard takes spec.hard
 * (admission enforces a quota only from then on) and status.used the namespace's pod usage, kept up to
 * date as pods come and go.
 */
export function quotaBehaviour(sim: SimContext): KindBehaviour {
  const type = () => sim.type('', 'resourcequotas');
  const pending = new Set<string>();

  const sync = (namespace: string): void => {
    pending.delete(namespace);
    // Read in place (no copy per pod event); `mutate` writes a copy of the one that changed.
    for (const quota of sim.store.peekSorted('/resourcequotas', namespace)) {
      const hard = (quota.spec?.hard as Record<string, string> | undefined) ?? {};
      const used = namespaceUsage(sim.store, namespace, Object.keys(hard));
      const status = {
        hard: { ...hard },
        used: Object.fromEntries(Object.entries(used).map(([resource, value]) => [resource, formatQuantity(value, resource)])),
      };
      if (JSON.stringify(status) === JSON.stringify(quota.status)) continue;
      sim.mutate(type(), namespace, quota.metadata.name!, (object) => {
        object.status = status;
      });
    }
  };
  const schedule = (namespace: string | undefined): void => {
    if (!namespace || pending.has(namespace)) return;
    pending.add(namespace);
    sim.later(0, () => sync(namespace));
  };

  sim.store.on('event', (event) => {
    if (event.resource === '/pods' && sim.store.count('/resourcequotas', event.namespace) > 0) schedule(event.namespace);
  });
  return {
    prepareCreate(quota) {
      quota.status = {};
    },
    created: (quota) => schedule(quota.metadata.namespace),
    updated: (quota) => schedule(quota.metadata.namespace),
  };
}
