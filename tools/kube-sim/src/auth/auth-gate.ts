import type { IncomingMessage } from 'node:http';
import { ApiError } from '../api/status.js';
import type { ObjectStore } from '../api/store.js';
import { RbacAuthorizer, type RequestAttributes } from './rbac.js';
import type { TokenEntry, UserInfo } from './tokens.js';

export interface AuthOptions {
  /** Bearer tokens (the `--token-auth-file` entries); a token not listed gets 401. */
  tokens: TokenEntry[];
  /** `--authorization-mode=RBAC`: evaluate Roles and bindings; otherwise every authenticated request is allowed. */
  rbac: boolean;
}

const ANONYMOUS: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };
const unauthorized = (): ApiError => new ApiError(401, 'Unauthorized', 'Unauthorized');

/** Authentication (bearer tokens) and authorization (RBAC) in front of the API, as a real API server does them. */
export class AuthGate {
  private readonly byToken: Map<string, UserInfo>;
  private readonly rbac?: RbacAuthorizer;

  constructor(options: AuthOptions, store: ObjectStore) {
    this.byToken = new Map(options.tokens.map((entry) => [entry.token, { name: entry.name, uid: entry.uid, groups: [...entry.groups, 'system:authenticated'] }]));
    if (options.rbac) this.rbac = new RbacAuthorizer(store);
  }

  /** The request's user: its bearer token's, or anonymous without one; 401 for a token nobody has. */
  authenticate(request: IncomingMessage): UserInfo {
    const header = request.headers.authorization;
    if (!header) return ANONYMOUS;
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const user = match ? this.byToken.get(match[1]) : undefined;
    if (!user) throw unauthorized();
    return user;
  }

  /** 403 with the API server's message when RBAC does not allow the resource request. */
  authorize(user: UserInfo, request: RequestAttributes): void {
    if (!this.rbac || this.rbac.allows(user, request)) return;
    const resource = request.subresource ? `${request.resource}/${request.subresource}` : request.resource;
    const target = `${request.group ? `${request.resource}.${request.group}` : request.resource}${request.name ? ` "${request.name}"` : ''}`;
    const scope = request.namespace ? `in the namespace "${request.namespace}"` : 'at the cluster scope';
    throw new ApiError(403, 'Forbidden', `${target} is forbidden: User "${user.name}" cannot ${request.verb} resource "${resource}" in API group "${request.group}" ${scope}`, {
      ...(request.name ? { name: request.name } : {}),
      ...(request.group ? { group: request.group } : {}),
      kind: request.resource,
    });
  }

  /** Non-resource paths (discovery, OpenAPI, version, health): 403 `cannot get path` when not allowed. */
  authorizePath(user: UserInfo, method: string, path: string): void {
    const verb = method.toLowerCase();
    if (!this.rbac || this.rbac.allowsPath(user, verb, path)) return;
    throw new ApiError(403, 'Forbidden', `forbidden: User "${user.name}" cannot ${verb} path "${path}"`);
  }
}
