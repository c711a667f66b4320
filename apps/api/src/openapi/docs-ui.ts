import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Swagger UI for the OpenAPI document, served from the installed `swagger-ui-dist` (no CDN). Only the
 * files listed here are served (no path from the request reaches the file system), each read once.
 * The page runs under a CSP of `'self'` only: scripts, styles and fetches from this origin; images from
 * this origin or `data:` (the stylesheet's own embedded icons); no inline script (the start-up code is
 * its own file), no frames, no plugins. The validator badge (a call to validator.swagger.io) is off.
 */
export const DOCS_PATH = '/exp/docs';
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const INDEX_HTML = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <title>Antidote API</title>
    <link rel="stylesheet" type="text/css" href="${DOCS_PATH}/swagger-ui.css">
    <link rel="stylesheet" type="text/css" href="${DOCS_PATH}/index.css">
    <link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-32x32.png" sizes="32x32">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${DOCS_PATH}/swagger-ui-bundle.js" charset="UTF-8"></script>
    <script src="${DOCS_PATH}/docs-init.js" charset="UTF-8"></script>
  </body>
</html>
`;

const INIT_JS = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({ url: '/exp/openapi.json', dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null, presets: [SwaggerUIBundle.presets.apis], layout: 'BaseLayout' });
});
`;

/** File name → content type of what swagger-ui-dist ships and the page uses. */
const DIST_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

export interface DocsAsset {
  type: string;
  body: Buffer;
}

/** The page's files, by name; `undefined` for any other name. Throws DocsUnavailableError without swagger-ui-dist. */
export class DocsAssets {
  private readonly cache = new Map<string, DocsAsset>([
    ['index.html', { type: 'text/html; charset=utf-8', body: Buffer.from(INDEX_HTML) }],
    ['docs-init.js', { type: 'text/javascript; charset=utf-8', body: Buffer.from(INIT_JS) }],
  ]);
  private distDir?: string;

  constructor(private readonly resolveDist: () => string = defaultDistDir) {}

  get(name: string): DocsAsset | undefined {
    // The page without its scripts would be blank: it too says that swagger-ui-dist is missing.
    if (name === 'index.html') this.dist();
    const cached = this.cache.get(name);
    if (cached) return cached;
    const type = Object.hasOwn(DIST_FILES, name) ? DIST_FILES[name] : undefined;
    if (!type) return undefined;
    const asset = { type, body: readFileSync(join(this.dist(), name)) };
    this.cache.set(name, asset);
    return asset;
  }

  private dist(): string {
    try {
      this.distDir ??= this.resolveDist();
      return this.distDir;
    } catch (error) {
      throw new DocsUnavailableError(error instanceof Error ? error.message : String(error));
    }
  }
}

export class DocsUnavailableError extends Error {
  constructor(cause: string) {
    super(`the API docs UI needs the swagger-ui-dist package beside the api (${cause})`);
    this.name = 'DocsUnavailableError';
  }
}

const defaultDistDir = (): string => dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
