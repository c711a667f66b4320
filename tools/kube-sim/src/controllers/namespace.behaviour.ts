import type { KindBehaviour } from '../api/behaviour.js';
import { matchesAny } from '../faults.js';
import { now, type SimContext } from './sim-context.js';

/**
 * Namespaces: Active on create; a delete makes them Terminating, then (after the configured delay)
 * their contents are deleted and they disappear — unless content keeps finalizers, or the "stuck" fault
 * holds them until their `finalize` subresource clears spec.finalizers.
 */
export function namespaceBehaviour(sim: SimContext): KindBehaviour {
  const type = () => sim.type('', 'namespaces');
  const terminating = new Set<string>();
  const pending = new Set<string>();
  /** Last condition summary written per namespace, so status is only rewritten when it changes. */
  const reported = new Map<string, string>();

  const finish = (name: string): void => {
    pending.delete(name);
    const namespace = sim.store.get('/namespaces', undefined, name);
    if (!namespace?.metadata.deletionTimestamp) return;
    const contents = sim.store.contentsOf(name);
    const finalizers = (namespace.spec?.finalizers as string[] | undefined) ?? [];
    // No finalizer left (the controller's, or a client's `finalize`): the namespace goes at once, and
    // whatever is still in it stays behind, orphaned, as on a real server.
    const controllerDone = terminating.has(name) && contents.length === 0 && !matchesAny(sim.faults.stuckNamespaces, name);
    if (finalizers.length === 0 || controllerDone) {
      terminating.delete(name);
      reported.delete(name);
      sim.store.remove('/namespaces', undefined, name);
      return;
    }
    if (!terminating.has(name)) return;
    const blocked = contents.filter(({ object }) => object.metadata.finalizers?.length);
    const summary = `${contents.length}/${blocked.length}/${finalizers.length}`;
    if (reported.get(name) === summary) return;
    reported.set(name, summary);
    sim.mutate(type(), undefined, name, (object) => {
      object.status = {
        phase: 'Terminating',
        conditions: [
          {
            type: 'NamespaceContentRemaining',
            status: contents.length > 0 ? 'True' : 'False',
            reason: contents.length > 0 ? 'SomeResourcesRemain' : 'ContentRemoved',
            message: `Some resources are remaining: ${contents.length} objects`,
            lastTransitionTime: now(),
          },
          {
            type: 'NamespaceFinalizersRemaining',
            status: blocked.length > 0 || finalizers.length > 0 ? 'True' : 'False',
            reason: blocked.length > 0 ? 'SomeFinalizersRemain' : 'ContentHasNoFinalizers',
            message: `Some content in the namespace has finalizers remaining: ${[...new Set(blocked.flatMap(({ object }) => object.metadata.finalizers ?? []))].join(', ')}`,
            lastTransitionTime: now(),
          },
        ],
      };
    });
  };

  const schedule = (name: string): void => {
    if (pending.has(name)) return;
    pending.add(name);
    setImmediate(() => finish(name));
  };

  // Anything leaving or changing inside a terminating namespace may let it finish.
  sim.store.on('event', (event) => {
    if (event.resource === '/namespaces') {
      const name = event.object.metadata.name!;
      const finalizers = (event.object.spec?.finalizers as string[] | undefined) ?? [];
      if (event.object.metadata.deletionTimestamp && finalizers.length === 0) schedule(name);
    } else if (event.namespace && terminating.has(event.namespace)) {
      schedule(event.namespace);
    }
  });

  return {
    prepareCreate(object) {
      object.spec = { ...object.spec, finalizers: ['kubernetes'] };
      object.status = { phase: 'Active' };
      object.metadata.labels = { ...object.metadata.labels, 'kubernetes.io/metadata.name': object.metadata.name! };
    },
    prepareUpdate(previous, next) {
      next.status = previous.status;
    },
    created(object) {
      // The service account controller creates the namespace's `default` ServiceAccount a moment later;
      // until then pods are refused (403), as on a real cluster.
      // With no delay (`serviceAccountDelayMs: 0`) it is there when the namespace create answers.
      const name = object.metadata.name!;
      const createAccount = () => {
        const namespace = sim.store.get('/namespaces', undefined, name);
        if (!namespace || namespace.metadata.uid !== object.metadata.uid || namespace.metadata.deletionTimestamp) return;
        if (!sim.store.get('/serviceaccounts', name, 'default'))
          sim.handler.create(sim.type('', 'serviceaccounts'), name, { metadata: { name: 'default' } }, { internal: true });
      };
      if (sim.faults.serviceAccountDelayMs > 0) sim.later(sim.faults.serviceAccountDelayMs, createAccount);
      else createAccount();
    },
    deleting(object) {
      const name = object.metadata.name!;
      sim.mutate(type(), undefined, name, (ns) => {
        ns.status = { phase: 'Terminating' };
      });
      sim.later(sim.faults.namespaceDeleteDelayMs, () => {
        terminating.add(name);
        for (const { resource, object: item } of sim.store.contentsOf(name)) {
          const [group, plural] = resource.split('/') as [string, string];
          try {
            sim.handler.delete(sim.type(group, plural), name, item.metadata.name!, { propagationPolicy: 'Background' });
          } catch {
            // already gone
          }
        }
        schedule(name);
      });
      return 'defer';
    },
  };
}
