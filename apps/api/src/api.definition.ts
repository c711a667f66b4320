import type { NestExpressApplication } from '@nestjs/platform-express';
import type { ServiceDefinition } from '@antidote/runtime';
import { ApiModule } from './api.module.js';
import { useJsonBodies } from './http/body-parsing.js';
import { corsMiddleware } from './http/cors.js';
import { GatewayExceptionFilter } from './http/gateway-exception.filter.js';
import { inFlightCap } from './http/in-flight.js';
import { TerminalService } from './terminals/terminal.service.js';
import { serveWeb } from './web/serve-web.js';

/** How the api boots: the Antidote REST API and the ops routes on `httpPort`; it only publishes to the bus. */
export const apiService: ServiceDefinition = {
  name: 'api',
  module: (config) => ApiModule.forRoot(config),
  port: (config) => config.httpPort,
  host: (config) => config.api.host,
  consumesBus: false,
  defaultBodyParsers: false,
  configureHttp: (app, config) => {
    const express = app as NestExpressApplication;
    express.disable('x-powered-by');
    // CORS first, so every answer (a 415, 429 or 503 too) is readable by the page that asked.
    express.use(corsMiddleware(config.api.corsOrigins));
    express.use(inFlightCap(config.api.maxInFlightRequests));
    useJsonBodies(express, config.api.maxBodyBytes);
    serveWeb(express, config);
    express.get(TerminalService).attach(express.getHttpServer());
    express.useGlobalFilters(new GatewayExceptionFilter());
  },
};
