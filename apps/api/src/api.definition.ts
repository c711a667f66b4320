import type { NestExpressApplication } from '@nestjs/platform-express';
import type { ServiceDefinition } from '@antidote/runtime';
import { ApiModule } from './api.module.js';
import { GatewayExceptionFilter } from './http/gateway-exception.filter.js';

/** How the api boots: the Antidote REST API and the ops routes on `httpPort`; it only publishes to the bus. */
export const apiService: ServiceDefinition = {
  name: 'api',
  module: (config) => ApiModule.forRoot(config),
  port: (config) => config.httpPort,
  host: (config) => config.api.host,
  consumesBus: false,
  configureHttp: (app, config) => {
    const express = app as NestExpressApplication;
    express.disable('x-powered-by');
    express.useBodyParser('json', { limit: config.api.maxBodyBytes });
    express.useGlobalFilters(new GatewayExceptionFilter());
  },
};
