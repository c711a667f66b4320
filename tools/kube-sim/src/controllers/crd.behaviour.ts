import type { KindBehaviour } from '../api/behaviour.js';
import type { KubeObject } from '../api/object.js';
import { resourceKey } from '../api/store.js';
import { invalid } from '../api/status.js';
import { now, type SimContext } from './sim-context.js';

interface CrdSpec {
  group: string;
  scope: 'Namespaced' | 'Cluster';
  names: { plural: string; singular?: string; kind: string; shortNames?: string[]; categories?: string[] };
  versions: { name: string; served: boolean; storage?: boolean }[];
}

/** CustomResourceDefinitions: registering one serves its resources (and discovery) at once; Established right after. */
export function crdBehaviour(sim: SimContext): KindBehaviour {
  const register = (crd: KubeObject): void => {
    const spec = crd.spec as unknown as CrdSpec;
    for (const version of spec.versions.filter((candidate) => candidate.served)) {
      sim.registry.add({
        group: spec.group,
        version: version.name,
        kind: spec.names.kind,
        plural: spec.names.plural,
        singular: spec.names.singular ?? spec.names.kind.toLowerCase(),
        namespaced: spec.scope === 'Namespaced',
        shortNames: spec.names.shortNames,
        categories: spec.names.categories,
      });
    }
  };
  return {
    prepareCreate(crd) {
      const spec = crd.spec as unknown as CrdSpec | undefined;
      if (!spec?.group || !spec.names?.plural || !spec.names.kind || !spec.versions?.length)
        throw invalid(
          'CustomResourceDefinition',
          crd.metadata.name ?? '',
          [{ field: 'spec', message: 'Required value: group, names.plural, names.kind and versions' }],
          'apiextensions.k8s.io',
        );
      crd.status = {
        acceptedNames: spec.names,
        storedVersions: spec.versions.filter((v) => v.storage).map((v) => v.name),
        conditions: [{ type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', lastTransitionTime: now() }],
      };
    },
    created(crd) {
      register(crd);
      // As on a real API server, the create answers before the CRD is Established: clients must wait for it.
      sim.later(0, () =>
        sim.mutate(sim.type('apiextensions.k8s.io', 'customresourcedefinitions'), undefined, crd.metadata.name!, (object) => {
          const conditions = (object.status?.conditions as unknown[] | undefined) ?? [];
          object.status = {
            ...object.status,
            conditions: [...conditions, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', lastTransitionTime: now() }],
          };
        }),
      );
    },
    deleted(crd) {
      const spec = crd.spec as unknown as CrdSpec;
      for (const version of spec.versions) sim.registry.remove(spec.group, version.name, spec.names.plural);
      const key = resourceKey({ group: spec.group, plural: spec.names.plural });
      for (const object of sim.store.list(key)) sim.store.remove(key, object.metadata.namespace, object.metadata.name!);
    },
  };
}
