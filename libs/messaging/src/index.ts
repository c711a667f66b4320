export { natsServerVersion, startNatsServer } from './nats-server.process.js';
export type { NatsServerOptions, NatsServerProcess } from './nats-server.process.js';
