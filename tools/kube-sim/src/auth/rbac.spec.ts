import { describe, expect, it } from 'vitest';
import { ObjectStore } from '../api/store.js';
import { RbacAuthorizer, type RequestAttributes } from './rbac.js';
import { parseTokenFile } from './tokens.js';

const RBAC = 'rbac.authorization.k8s.io';
const store = new ObjectStore();
store.create(`${RBAC}/roles`, {
  metadata: { name: 'reader', namespace: 'team' },
  rules: [{ apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list'] }],
});
store.create(`${RBAC}/roles`, {
  metadata: { name: 'one-job', namespace: 'team' },
  rules: [{ apiGroups: ['batch'], resources: ['jobs'], resourceNames: ['nightly'], verbs: ['*'] }],
});
store.create(`${RBAC}/clusterroles`, {
  metadata: { name: 'lease-writer' },
  rules: [{ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'update'] }],
});
store.create(`${RBAC}/clusterroles`, {
  metadata: { name: 'ns-lister' },
  rules: [
    { apiGroups: [''], resources: ['namespaces'], verbs: ['list'] },
    { nonResourceURLs: ['/metrics'], verbs: ['get'] },
  ],
});
const binding = (resource: string, name: string, namespace: string | undefined, roleKind: string, role: string, subject: Record<string, string>) =>
  store.create(`${RBAC}/${resource}`, { metadata: { name, namespace }, roleRef: { apiGroup: RBAC, kind: roleKind, name: role }, subjects: [subject] });
binding('rolebindings', 'devs', 'team', 'Role', 'reader', { kind: 'Group', name: 'developers' });
binding('rolebindings', 'jobs', 'team', 'Role', 'one-job', { kind: 'User', name: 'alice' });
binding('rolebindings', 'sa-leases', 'team', 'ClusterRole', 'lease-writer', { kind: 'ServiceAccount', name: 'reaper' });
binding('clusterrolebindings', 'bob-ns', undefined, 'ClusterRole', 'ns-lister', { kind: 'User', name: 'bob' });

const alice = { name: 'alice', groups: ['developers', 'system:authenticated'] };
const bob = { name: 'bob', groups: ['system:authenticated'] };
const reaper = { name: 'system:serviceaccount:team:reaper', groups: ['system:serviceaccounts'] };
const admin = { name: 'root', groups: ['system:masters'] };
const pods = (verb: string, namespace = 'team', subresource?: string): RequestAttributes => ({ verb, group: '', resource: 'pods', namespace, subresource });

describe('RbacAuthorizer', () => {
  const rbac = new RbacAuthorizer(store);
  it.each([
    ['group member lists pods in the bound namespace', alice, pods('list'), true],
    ['…and reads their logs (subresource rule)', alice, pods('get', 'team', 'log'), true],
    ['…but not in another namespace', alice, pods('list', 'other'), false],
    ['…nor with a verb the role lacks', alice, pods('delete'), false],
    ['…nor a subresource the role lacks', alice, pods('create', 'team', 'exec'), false],
    ['resourceNames: the named job', alice, { verb: 'delete', group: 'batch', resource: 'jobs', namespace: 'team', name: 'nightly' }, true],
    ['resourceNames: another job', alice, { verb: 'delete', group: 'batch', resource: 'jobs', namespace: 'team', name: 'daily' }, false],
    ['resourceNames: a list is not a named request', alice, { verb: 'list', group: 'batch', resource: 'jobs', namespace: 'team' }, false],
    [
      'ServiceAccount via a RoleBinding to a ClusterRole',
      reaper,
      { verb: 'update', group: 'coordination.k8s.io', resource: 'leases', namespace: 'team', name: 'l' },
      true,
    ],
    ['…only in the binding namespace', reaper, { verb: 'update', group: 'coordination.k8s.io', resource: 'leases', namespace: 'other', name: 'l' }, false],
    ['ClusterRoleBinding grants cluster scope', bob, { verb: 'list', group: '', resource: 'namespaces' }, true],
    ['the API group must match', bob, { verb: 'list', group: 'example.com', resource: 'namespaces' }, false],
    ['system:masters may do anything', admin, pods('delete', 'anywhere'), true],
  ])('%s', (_name, user, request, allowed) => {
    expect(rbac.allows(user, request)).toBe(allowed);
  });

  it('evaluates nonResourceURLs for paths', () => {
    expect(rbac.allowsPath(bob, 'get', '/metrics')).toBe(true);
    expect(rbac.allowsPath(alice, 'get', '/metrics')).toBe(false);
  });
});

describe('parseTokenFile', () => {
  it('reads token,user,uid,"groups" lines, skipping blanks and comments', () => {
    expect(parseTokenFile('# comment\nt1,alice,1,"a,b"\n\nt2,bob,2\nt3,carol,,ops\n')).toEqual([
      { token: 't1', name: 'alice', uid: '1', groups: ['a', 'b'] },
      { token: 't2', name: 'bob', uid: '2', groups: [] },
      { token: 't3', name: 'carol', uid: undefined, groups: ['ops'] },
    ]);
  });

  it('refuses a line without a user, with its number', () => {
    expect(() => parseTokenFile('t1,alice,1\nlonely\n')).toThrow('token file line 2');
  });
});
