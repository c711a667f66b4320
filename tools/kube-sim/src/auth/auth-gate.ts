import type { IncomingMessage } from 'node:http';
import { ApiError } from '../api/status.js';
import type { ObjectStore } from '../api/store.js';
import { RbacAuthorizer, type RequestAttributes } from './rbac.js';
import type { TokenEntry, UserInfo } from './tokens.js';

export interface AuthOptions {
  /**
   * Bearer tokens (the `--token-auth-file` entries); a token not listed gets 401. Absent or without a
   * `system:masters` entry, kube-sim adds an admin token of its own, random per run (its kubeconfig's).
   */
  tokens?: TokenEntry[];
  /** `--authorization-mode=RBAC`: evaluate Roles and bindings; otherwise every authenticated request is allowed. */
  rbac?: boolean;
  /**
   * `--anonymous-auth`: a request without credentials is `system:anonymous`; otherwise it gets 401.
   * Default: on with RBAC (which allows anonymous users health and version only), off without — the
   * API server's own rule, as AlwaysAllow would let an anonymous user do anything. Tests that want
   * anyone to do anything ask for it: `{ anonymous: true }` without RBAC.
   */
  anonymous?: boolean;
}

const ANONYMOUS: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };
const unauthorized = (): ApiError => new ApiError(401, 'Unauthorized', 'Unauthorized');

/** Authentication (bearer tokens) and authorization (RBAC) in front of the API, as a real API server does them. */
export class AuthGate {
  private readonly byToken: Map<string, UserInfo>;
  private readonly rbac?: RbacAuthorizer;
  private readonly anonymous: boolean;

  constructor(tokens: readonly TokenEntry[], options: AuthOptions, store: ObjectStore) {
    this.byToken = new Map(tokens.map((entry) => [entry.token, { name: entry.name, uid: entry.uid, groups: [...entry.groups, 'system:authenticated'] }]));
    if (options.rbac) this.rbac = new RbacAuthorizer(store);
    this.anonymous = options.anonymous ?? options.rbac === true;
  }

  /**
   * The request's user, as the API server's bearer-token authenticator finds it: no `Authorization:
   * Bearer <token>` header (none, another scheme, an empty token) is no credentials — anonymous when
   * allowed, else 401; a token nobody has is 401.
   */
  authenticate(request: IncomingMessage): UserInfo {
    const [scheme = '', token = ''] = (request.headers.authorization ?? '').trim().split(/ +/);
    if (scheme.toLowerCase() !== 'bearer' || token === '') {
      if (this.anonymous) return ANONYMOUS;
      throw unauthorized();
    }
    const user = this.byToken.get(token);
    if (!user) throw unauthorized();
    return user;
  }

  /** 403 with the API server's message when RBAC does not allow the resource request. */
  authorize(user: UserInfo, request: RequestAttributes): void {
    if (!this.rbac || this.rbac.allows(user, request)) return;
    const resource = request.subresource ? `${request.resource}/${request.subresource}` : request.resource;
    const target = `${request.group ? `${request.resource}.${request.group}` : request.resource}${request.name ? ` "${request.name}"` : ''}`;
    const scope = request.namespace ? `in the namespace "${request.namespace}"` : 'at the cluster scope';
    throw new ApiError(
      403,
      'Forbidden',
      `${target} is forbidden: User "${user.name}" cannot ${request.verb} resource "${resource}" in API group "${request.group}" ${scope}`,
      {
        ...(request.name ? { name: request.name } : {}),
        ...(request.group ? { group: request.group } : {}),
        kind: request.resource,
      },
    );
  }

  /** Non-resource paths (discovery, OpenAPI, version, health): 403 `cannot get path` when not allowed. */
  authorizePath(user: UserInfo, method: string, path: string): void {
    const verb = method.toLowerCase();
    if (!this.rbac || this.rbac.allowsPath(user, verb, path)) return;
    throw new ApiError(403, 'Forbidden', `forbidden: User "${user.name}" cannot ${verb} path "${path}"`);
  }
}
