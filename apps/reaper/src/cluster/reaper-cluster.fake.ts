import type { BlockingResource, NamespaceRecord, ReaperCluster, StuckNamespaceOutcome } from './reaper-cluster.port.js';

type Method = 'listManagedNamespaces' | 'deleteNamespace' | 'blockingResources' | 'removeFinalizers';

/**
 * An in-memory ReaperCluster for unit specs: managed namespaces in a map, the objects still holding
 * finalizers per namespace, every call in `calls` (in order), and a failure per method.
 */
export class FakeReaperCluster implements ReaperCluster {
  readonly namespaces = new Map<string, NamespaceRecord>();
  readonly blocking = new Map<string, BlockingResource[]>();
  /** `deleteNamespace ns`, `removeFinalizers ns 2`, … in call order. */
  readonly calls: string[] = [];
  /** The page sizes `listManagedNamespaces` was asked for. */
  readonly pageSizes: number[] = [];
  private readonly failures = new Map<Method, Error>();

  /** Adds (or replaces) a managed namespace; `finalizers` and `conditions` default to none. */
  add(namespace: Partial<NamespaceRecord> & { name: string }): this {
    this.namespaces.set(namespace.name, { finalizers: [], conditions: [], ...namespace });
    return this;
  }

  /** Calls of `method` fail with `error` from now on (until `succeed`). */
  fail(method: Method, error: Error): void {
    this.failures.set(method, error);
  }

  succeed(method: Method): void {
    this.failures.delete(method);
  }

  listManagedNamespaces(pageSize: number): Promise<NamespaceRecord[]> {
    return this.call('listManagedNamespaces', '', () => {
      this.pageSizes.push(pageSize);
      return [...this.namespaces.values()].map((namespace) => ({ ...namespace }));
    });
  }

  /** Starts the deletion: the namespace is Terminating from now on (as the API server does it). */
  deleteNamespace(name: string): Promise<void> {
    return this.call('deleteNamespace', name, () => {
      const namespace = this.namespaces.get(name);
      if (namespace && !namespace.deletingSince) namespace.deletingSince = new Date();
    });
  }

  blockingResources(namespace: string): Promise<BlockingResource[]> {
    return this.call('blockingResources', namespace, () => (this.blocking.get(namespace) ?? []).map((resource) => ({ ...resource })));
  }

  /** Clears the given objects' finalizers; the namespace goes only once nothing holds it any more. */
  removeFinalizers(namespace: string, resources: readonly BlockingResource[]): Promise<StuckNamespaceOutcome> {
    return this.call('removeFinalizers', `${namespace} ${resources.length}`, () => {
      const cleared = new Set(resources.map((resource) => `${resource.kind}/${resource.name}`));
      const remaining = (this.blocking.get(namespace) ?? []).filter((resource) => !cleared.has(`${resource.kind}/${resource.name}`));
      this.blocking.set(namespace, remaining);
      if (remaining.length > 0) return { namespaceFinalized: false, remaining: remaining.length };
      this.namespaces.delete(namespace);
      return { namespaceFinalized: true, remaining: 0 };
    });
  }

  callCount(): number {
    return this.calls.length;
  }

  private call<T>(method: Method, detail: string, act: () => T): Promise<T> {
    this.calls.push(detail ? `${method} ${detail}` : method);
    const failure = this.failures.get(method);
    if (failure) return Promise.reject(failure);
    return Promise.resolve(act());
  }
}
