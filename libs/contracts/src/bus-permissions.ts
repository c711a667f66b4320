import { EventSubjects, RequestSubjects, type EventSubject, type RequestSubject } from './subjects.js';

/**
 * Who is who on the bus. Each app connects as its own NATS user; `admin` is the operator's tool
 * (`antictl`). nats-server enforces the table below, so a stolen credential reaches only what its app
 * needs.
 */
export const BusIdentities = ['api', 'scheduler', 'healthchecker', 'reaper', 'admin'] as const;
export type BusIdentity = (typeof BusIdentities)[number];

/** Who serves each request (subscribes to it) and who may ask it (publishes it). */
export const requestRoutes = {
  [RequestSubjects.liveLessonCreate]: { servedBy: 'scheduler', askedBy: ['api', 'admin'] },
  [RequestSubjects.liveLessonModify]: { servedBy: 'scheduler', askedBy: ['api', 'admin'] },
  [RequestSubjects.liveLessonDelete]: { servedBy: 'scheduler', askedBy: ['api', 'reaper', 'admin'] },
  [RequestSubjects.liveLessonKeepAlive]: { servedBy: 'scheduler', askedBy: ['api', 'admin'] },
  [RequestSubjects.liveLessonBind]: { servedBy: 'scheduler', askedBy: ['api', 'admin'] },
  [RequestSubjects.healthCheck]: { servedBy: 'healthchecker', askedBy: ['scheduler'] },
  [RequestSubjects.healthWaitReachable]: { servedBy: 'healthchecker', askedBy: ['scheduler'] },
  [RequestSubjects.reaperDryRun]: { servedBy: 'reaper', askedBy: ['admin'] },
} as const satisfies Record<RequestSubject, { servedBy: BusIdentity; askedBy: readonly BusIdentity[] }>;

/** Who publishes each event and who may hear it. */
export const eventRoutes = {
  [EventSubjects.liveLessonStatusChanged]: { publishedBy: 'scheduler', heardBy: ['api', 'admin'] },
  [EventSubjects.healthProgressed]: { publishedBy: 'healthchecker', heardBy: ['api', 'admin'] },
  [EventSubjects.reaperActed]: { publishedBy: 'reaper', heardBy: ['admin'] },
  [EventSubjects.reaperPassed]: { publishedBy: 'reaper', heardBy: ['admin'] },
  [EventSubjects.curriculumImported]: { publishedBy: 'api', heardBy: ['api', 'scheduler', 'admin'] },
} as const satisfies Record<EventSubject, { publishedBy: BusIdentity; heardBy: readonly BusIdentity[] }>;

/** What one identity may do: subjects it publishes, subjects it subscribes to, whether it answers requests. */
export interface BusPermissions {
  publish: string[];
  subscribe: string[];
  /** It serves requests, so it may publish one reply to each request it received (nats-server `allow_responses`). */
  answersRequests: boolean;
  /** It asks requests, so it subscribes to its own inbox for the replies. */
  asksRequests: boolean;
}

/** A NATS user's private reply subjects: `_INBOX.<user>`; nobody else may subscribe to them. */
export const inboxPrefixOf = (user: string): string => `_INBOX.${user}`;

/** The subject permissions of an identity, derived from the routes above (the one place they are decided). */
export function busPermissionsOf(identity: BusIdentity): BusPermissions {
  const requests = Object.entries(requestRoutes) as [string, { servedBy: string; askedBy: readonly string[] }][];
  const events = Object.entries(eventRoutes) as [string, { publishedBy: string; heardBy: readonly string[] }][];
  const asks = requests.filter(([, route]) => route.askedBy.includes(identity)).map(([subject]) => subject);
  const serves = requests.filter(([, route]) => route.servedBy === identity).map(([subject]) => subject);
  return {
    publish: [...asks, ...events.filter(([, route]) => route.publishedBy === identity).map(([subject]) => subject)],
    subscribe: [...serves, ...events.filter(([, route]) => route.heardBy.includes(identity)).map(([subject]) => subject)],
    answersRequests: serves.length > 0,
    asksRequests: asks.length > 0,
  };
}
