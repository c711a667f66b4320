import { randomBytes } from 'node:crypto';
import { BusIdentities, busPermissionsOf, inboxPrefixOf, type BusIdentity } from '@antidote/contracts';

/** One app's NATS login. */
export interface BusLogin {
  user: string;
  password: string;
}

/** A login per identity: what `antictl up` and the test servers generate, and what each app is given. */
export type BusCredentials = Record<BusIdentity, BusLogin>;

/** Fresh random passwords (256 bits each) for every identity; the user names are the identities. */
export function generateBusCredentials(): BusCredentials {
  return Object.fromEntries(BusIdentities.map((identity) => [identity, { user: identity, password: randomBytes(32).toString('base64url') }])) as BusCredentials;
}

const list = (subjects: string[]): string => `[${subjects.map((subject) => JSON.stringify(subject)).join(', ')}]`;

/**
 * A password as nats-server's config reads it: a quoted literal, or (`{ env }`) a reference to an
 * environment variable of the nats-server process, so a config shipped in a ConfigMap holds no secret.
 */
export type PasswordSource = string | { env: string };

function passwordText(password: PasswordSource): string {
  return typeof password === 'string' ? JSON.stringify(password) : `$${password.env}`;
}

function userBlock(identity: BusIdentity, user: string, password: PasswordSource): string {
  const permissions = busPermissionsOf(identity);
  const subscribe = [...permissions.subscribe, ...(permissions.asksRequests ? [`${inboxPrefixOf(user)}.>`] : [])];
  const lines = [
    `publish: ${permissions.publish.length > 0 ? `{ allow: ${list(permissions.publish)} }` : '{ deny: [">"] }'}`,
    `subscribe: ${subscribe.length > 0 ? `{ allow: ${list(subscribe)} }` : '{ deny: [">"] }'}`,
    ...(permissions.answersRequests ? ['allow_responses: true'] : []),
  ];
  return [
    `    # ${identity}`,
    `    { user: ${JSON.stringify(user)}, password: ${passwordText(password)}, permissions: {`,
    ...lines.map((line) => `      ${line}`),
    '    } }',
  ].join('\n');
}

/**
 * The nats-server `authorization` block for Antidote: one user per identity, each allowed exactly the
 * subjects `busPermissionsOf` gives it (and its own inbox for replies); everything else is refused,
 * and a client without credentials cannot connect.
 */
export function natsAuthorizationConfig(users: Record<BusIdentity, { user: string; password: PasswordSource }>): string {
  const blocks = BusIdentities.map((identity) => userBlock(identity, users[identity].user, users[identity].password));
  return ['authorization {', '  users = [', blocks.join('\n'), '  ]', '}', ''].join('\n');
}

/** The nats-server environment variable holding an identity's password in a deployment (`API_PASSWORD`…). */
export const natsPasswordEnv = (identity: BusIdentity): string => `${identity.toUpperCase()}_PASSWORD`;

/**
 * The authorization block shipped for a NATS the operator runs (deploy/k8s/base/nats-authorization.yaml):
 * user names are the identities, passwords come from nats-server's environment (the Secret antidote-nats).
 */
export function deployedNatsAuthorizationConfig(): string {
  const users = Object.fromEntries(BusIdentities.map((identity) => [identity, { user: identity, password: { env: natsPasswordEnv(identity) } }]));
  return natsAuthorizationConfig(users as Record<BusIdentity, { user: string; password: PasswordSource }>);
}
