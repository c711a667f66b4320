import type { KubeObject } from '../api/object.js';
import type { ObjectStore } from '../api/store.js';
import type { UserInfo } from './tokens.js';

/** What a request asks to do, as the RBAC authorizer sees it. */
export interface RequestAttributes {
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}
interface Subject {
  kind: string;
  name: string;
  namespace?: string;
}

const RBAC = 'rbac.authorization.k8s.io';
const has = (list: string[] | undefined, value: string): boolean => (list ?? []).some((item) => item === '*' || item === value);

function ruleAllows(rule: PolicyRule, request: RequestAttributes): boolean {
  if (!has(rule.verbs, request.verb) || !has(rule.apiGroups, request.group)) return false;
  const resources = rule.resources ?? [];
  const wanted = request.subresource ? `${request.resource}/${request.subresource}` : request.resource;
  const resourceOk = resources.some(
    (r) => r === '*' || r === wanted || (request.subresource !== undefined && (r === `*/${request.subresource}` || r === `${request.resource}/*`)),
  );
  return resourceOk && (!rule.resourceNames?.length || (request.name !== undefined && rule.resourceNames.includes(request.name)));
}

function pathAllowed(rule: PolicyRule, verb: string, path: string): boolean {
  return (
    has(rule.verbs, verb) && (rule.nonResourceURLs ?? []).some((url) => url === '*' || url === path || (url.endsWith('*') && path.startsWith(url.slice(0, -1))))
  );
}

function subjectMatches(subject: Subject, user: UserInfo, bindingNamespace?: string): boolean {
  if (subject.kind === 'User') return subject.name === user.name;
  if (subject.kind === 'Group') return user.groups.includes(subject.name);
  if (subject.kind === 'ServiceAccount') return user.name === `system:serviceaccount:${subject.namespace ?? bindingNamespace ?? ''}:${subject.name}`;
  return false;
}

/**
 * The RBAC authorizer over the Role/ClusterRole/RoleBinding/ClusterRoleBinding objects in the store, as
 * the API server evaluates them: ClusterRoleBindings grant everywhere, RoleBindings in their namespace
 * (to a Role there or a ClusterRole); `system:masters` may do anything.
 */
export class RbacAuthorizer {
  constructor(private readonly store: ObjectStore) {}

  private rulesOf(user: UserInfo, namespace: string | undefined): PolicyRule[] {
    const rules: PolicyRule[] = [];
    const roleRules = (kind: string, name: string, roleNamespace?: string): PolicyRule[] => {
      const role = kind === 'ClusterRole' ? this.store.get(`${RBAC}/clusterroles`, undefined, name) : this.store.get(`${RBAC}/roles`, roleNamespace, name);
      return (role?.rules as PolicyRule[] | undefined) ?? [];
    };
    const bindings = (resource: string, bindingNamespace?: string): KubeObject[] => this.store.list(`${RBAC}/${resource}`, bindingNamespace);
    for (const binding of bindings('clusterrolebindings')) {
      if (((binding.subjects as Subject[] | undefined) ?? []).some((s) => subjectMatches(s, user))) {
        const ref = binding.roleRef as { kind: string; name: string };
        rules.push(...roleRules(ref.kind, ref.name));
      }
    }
    if (namespace) {
      for (const binding of bindings('rolebindings', namespace)) {
        if (((binding.subjects as Subject[] | undefined) ?? []).some((s) => subjectMatches(s, user, namespace))) {
          const ref = binding.roleRef as { kind: string; name: string };
          rules.push(...roleRules(ref.kind, ref.name, namespace));
        }
      }
    }
    return rules;
  }

  allows(user: UserInfo, request: RequestAttributes): boolean {
    if (user.groups.includes('system:masters')) return true;
    return this.rulesOf(user, request.namespace).some((rule) => ruleAllows(rule, request));
  }

  allowsPath(user: UserInfo, verb: string, path: string): boolean {
    if (user.groups.includes('system:masters')) return true;
    return this.rulesOf(user, undefined).some((rule) => pathAllowed(rule, verb, path));
  }
}
