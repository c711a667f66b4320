/** `@antidote/messaging/dev`: a throwaway nats-server (and the watchdog of throwaway servers) for tests and `antictl up`; never loaded by a service. */
export { natsServerVersion, startNatsServer } from './nats-server.process.js';
export type { NatsServerOptions, NatsServerProcess } from './nats-server.process.js';
export { watchStarter, type StarterWatchdog } from './starter-watchdog.js';
