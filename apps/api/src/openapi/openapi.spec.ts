import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { RequestMethod, type Type } from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import { OpsController } from '@antidote/runtime';
import { AdminController } from '../admin/admin.controller.js';
import { PoolAdminController } from '../admin/pool-admin.controller.js';
import { QueueAdminController } from '../admin/queue-admin.controller.js';
import { CurriculumController } from '../curriculum/curriculum.controller.js';
import { LessonController } from '../lessons/lesson.controller.js';
import { LiveLessonController } from '../live-lessons/live-lesson.controller.js';
import { LiveSessionController } from '../sessions/live-session.controller.js';
import { API_ROUTES, errorsOf } from './api-routes.js';
import { DocsAssets, DocsUnavailableError } from './docs-ui.js';
import { OpenApiController } from './openapi.controller.js';
import { openApiDocument } from './openapi.document.js';

/** `METHOD /path/{param}` of every handler Nest would route, read from the decorators. */
function servedRoutes(controllers: Type[]): string[] {
  const routes: string[] = [];
  for (const controller of controllers) {
    const prefix = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    for (const name of Object.getOwnPropertyNames(controller.prototype)) {
      const handler = (controller.prototype as Record<string, unknown>)[name];
      if (name === 'constructor' || typeof handler !== 'function' || Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
      const path = ['', prefix, String(Reflect.getMetadata(PATH_METADATA, handler))]
        .join('/')
        .replace(/\/+/g, '/')
        .replace(/\/$/, '')
        .replace(/:(\w+)/g, '{$1}');
      routes.push(`${RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number]} ${path}`);
    }
  }
  return routes.sort();
}

describe('the OpenAPI route table', () => {
  it('lists exactly the routes the controllers serve (the docs UI aside)', () => {
    const served = servedRoutes([
      LiveSessionController,
      LiveLessonController,
      LessonController,
      CurriculumController,
      AdminController,
      PoolAdminController,
      QueueAdminController,
      OpenApiController,
      OpsController,
    ]);
    const documented = API_ROUTES.map((route) => `${route.method.toUpperCase()} ${route.path}`).sort();
    expect(served.filter((route) => !route.includes('/exp/docs'))).toEqual(documented);
    expect(served).toContain('GET /exp/docs/{file}');
  });

  it('gives every operation a success, its error statuses and a default error; path parameters required', () => {
    const document = openApiDocument() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown>; parameters?: { in: string; required: boolean }[] }>>;
    };
    for (const route of API_ROUTES) {
      const operation = document.paths[route.path][route.method];
      const statuses = Object.keys(operation.responses);
      expect(statuses, route.path).toEqual(expect.arrayContaining(['200', ...errorsOf(route).map(String), ...(route.ops ? [] : ['default'])]));
      for (const parameter of operation.parameters ?? []) if (parameter.in === 'path') expect(parameter.required).toBe(true);
      expect((operation.parameters ?? []).filter((parameter) => parameter.in === 'path')).toHaveLength([...route.path.matchAll(/\{/g)].length);
    }
  });

  it('answers 503 with a clear message when swagger-ui-dist is not beside the api, and serves only listed files', () => {
    const assets = new DocsAssets(() => {
      throw new Error("Cannot find module 'swagger-ui-dist/package.json'");
    });
    expect(() => assets.get('index.html')).toThrow(DocsUnavailableError);
    expect(assets.get('docs-init.js')?.type).toMatch(/^text\/javascript/);
    expect(() => assets.get('swagger-ui.css')).toThrow(DocsUnavailableError);
    expect(assets.get('../package.json')).toBeUndefined();
    expect(assets.get('constructor')).toBeUndefined();
  });
});
