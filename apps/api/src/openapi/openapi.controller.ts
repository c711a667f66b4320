import { Controller, Get, Logger, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { notFound, unavailable } from '../http/gateway.error.js';
import { DOCS_CSP, DOCS_PATH, DocsAssets, DocsUnavailableError } from './docs-ui.js';
import { openApiDocument } from './openapi.document.js';

const logger = new Logger('OpenApi');

/** `GET /exp/openapi.json` (generated once, from the route table and the zod schemas) and the Swagger UI at `/exp/docs/`. */
@Controller('exp')
export class OpenApiController {
  private readonly document = openApiDocument();
  private readonly assets = new DocsAssets();

  @Get('openapi.json')
  openapi(): Record<string, unknown> {
    return this.document;
  }

  @Get('docs')
  index(@Res() response: Response): void {
    this.send(response, 'index.html');
  }

  @Get('docs/:file')
  file(@Param('file') file: string, @Res() response: Response): void {
    this.send(response, file);
  }

  private send(response: Response, name: string): void {
    let asset;
    try {
      asset = this.assets.get(name);
    } catch (error) {
      if (!(error instanceof DocsUnavailableError)) throw error;
      logger.warn(error.message);
      throw unavailable(error.message);
    }
    if (!asset) throw notFound(`no such file in ${DOCS_PATH}/`);
    response
      .status(200)
      .set({
        'Content-Type': asset.type,
        'Content-Security-Policy': DOCS_CSP,
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'no-cache',
        'Referrer-Policy': 'no-referrer',
      })
      .end(asset.body);
  }
}
