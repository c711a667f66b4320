import { apiVersionOf, type ResourceRegistry, type ResourceType } from './resources.js';

export const KUBE_VERSION = {
  major: '1',
  minor: '30',
  gitVersion: 'v1.30.0-kube-sim',
  gitCommit: 'kube-sim',
  gitTreeState: 'clean',
  buildDate: '2026-01-01T00:00:00Z',
  goVersion: 'go1.22',
  compiler: 'gc',
  platform: 'linux/amd64',
};

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function resourceList(types: ResourceType[], groupVersion: string): unknown {
  const resources = types.flatMap((type) => [
    {
      name: type.plural,
      singularName: type.singular,
      namespaced: type.namespaced,
      kind: type.kind,
      verbs: VERBS,
      ...(type.shortNames ? { shortNames: type.shortNames } : {}),
      ...(type.categories ? { categories: type.categories } : {}),
    },
    ...(type.subresources ?? []).map((sub) => ({
      name: `${type.plural}/${sub}`,
      singularName: '',
      namespaced: type.namespaced,
      kind: sub === 'log' ? 'Pod' : type.kind,
      verbs: sub === 'log' ? ['get'] : ['get', 'patch', 'update'],
    })),
  ]);
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources };
}

/** `/version`, `/api`, `/api/v1`, `/apis`, `/apis/<group>`, `/apis/<group>/<version>`; undefined when the path is not discovery. */
export function discovery(path: string, registry: ResourceRegistry, serverAddress: string): unknown {
  const segments = path.split('/').filter(Boolean);
  const types = registry.all();
  if (path === '/version' || path === '/version/') return KUBE_VERSION;
  if (segments[0] === 'api' && segments.length === 1) {
    return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
  }
  if (segments[0] === 'api' && segments.length === 2) {
    return segments[1] === 'v1'
      ? resourceList(
          types.filter((t) => t.group === ''),
          'v1',
        )
      : undefined;
  }
  const groups = new Map<string, Set<string>>();
  for (const type of types) if (type.group) groups.set(type.group, (groups.get(type.group) ?? new Set()).add(type.version));
  const groupBody = (name: string): unknown => {
    const versions = [...groups.get(name)!].map((version) => ({ groupVersion: `${name}/${version}`, version }));
    return { name, versions, preferredVersion: versions[0] };
  };
  if (segments[0] === 'apis' && segments.length === 1) return { kind: 'APIGroupList', apiVersion: 'v1', groups: [...groups.keys()].sort().map(groupBody) };
  if (segments[0] === 'apis' && segments.length === 2)
    return groups.has(segments[1]) ? { kind: 'APIGroup', apiVersion: 'v1', ...(groupBody(segments[1]) as object) } : undefined;
  if (segments[0] === 'apis' && segments.length === 3) {
    const matching = types.filter((t) => t.group === segments[1] && t.version === segments[2]);
    return matching.length > 0 ? resourceList(matching, apiVersionOf(matching[0])) : undefined;
  }
  return undefined;
}
