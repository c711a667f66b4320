import type { NestExpressApplication } from '@nestjs/platform-express';
import type { ServiceDefinition } from '@antidote/runtime';
import { ApiModule } from './api.module.js';
import { useEdge } from './http/edge.js';
import { GatewayExceptionFilter } from './http/gateway-exception.filter.js';
import { TerminalService } from './terminals/terminal.service.js';
import { serveWeb } from './web/serve-web.js';

/** How the api boots: the Antidote REST API and the ops routes on `httpPort`; it only publishes to the bus. */
export const apiService: ServiceDefinition = {
  name: 'api',
  module: (config) => ApiModule.forRoot(config),
  port: (config) => config.httpPort,
  host: (config) => config.api.host,
  backlog: (config) => config.api.listenBacklog,
  consumesBus: false,
  defaultBodyParsers: false,
  configureHttp: (app, config) => {
    const express = app as NestExpressApplication;
    express.disable('x-powered-by');
    const site = useEdge(express, config);
    serveWeb(express, config);
    express.get(TerminalService).attach(express.getHttpServer(), site);
    express.useGlobalFilters(new GatewayExceptionFilter());
  },
};
