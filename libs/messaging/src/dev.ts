/** `@antidote/messaging/dev`: a throwaway nats-server for tests and `antictl up`; never loaded by a service. */
export { natsServerVersion, startNatsServer } from './nats-server.process.js';
export type { NatsServerOptions, NatsServerProcess } from './nats-server.process.js';
