import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Router, type RequestHandler } from 'express';
import { HttpFailure } from '../http-failure.js';
import { routeName } from '../operation.js';
import { DOCS_CONTENT_SECURITY_POLICY, pageHeaders } from '../page-policy.js';
import { routeTable } from '../route-table.js';
import { type Json } from './json.js';

// Swagger UI comes from the installed package, never a CDN: the page works offline.
const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
/** The only files of the package the page needs; nothing else of it is served. */
const assets = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png']);
/** The methods every path answers for the protocol's sake, left off the page. */
export const HIDDEN_METHODS = ['head', 'options'] as const;

const page = `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>workplan API</title>
<link rel="icon" href="/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

// The page shows the operations a person calls: HEAD and OPTIONS stay in /openapi.json for
// clients and tools, but on the page they would triple the list (40 entries for 18).
// validatorUrl null: the default badge would send the document to validator.swagger.io.
// persistAuthorization false: the KEY given in "Authorize" is kept in the page alone, and
// forgotten on a reload; kept, it went to localStorage, where it outlived the tab.
const init = `fetch('/openapi.json')
  .then((response) => response.json())
  .then((spec) => {
    for (const operations of Object.values(spec.paths)) {
      for (const hidden of ${JSON.stringify(HIDDEN_METHODS)}) delete operations[hidden];
    }
    window.ui = SwaggerUIBundle({
      spec,
      dom_id: '#swagger-ui',
      deepLinking: true,
      persistAuthorization: false,
      tryItOutEnabled: true,
      displayRequestDuration: true,
      validatorUrl: null,
    });
  });
`;

/**
 * Serves the API document at `/openapi.json` and a page to read and try it at `/docs`,
 * without a key; the page and its files under a policy as strict as the console's.
 */
export function docsRouter(document: Json): Router {
  const router = Router({ caseSensitive: false, strict: false });
  router.use('/docs', pageHeaders(DOCS_CONTENT_SECURITY_POLICY));
  const asset: RequestHandler = (req, res, next) => {
    const file = req.params.file;
    if (typeof file !== 'string' || !assets.has(file)) {
      next(new HttpFailure('ROUTE_NOT_FOUND'));
      return;
    }
    // `root` keeps send's dot-file check to the file name: the package sits under node_modules/.pnpm.
    res.sendFile(file, { root: swaggerUiDir, maxAge: '1h' }, (error: unknown) => {
      if (error !== undefined) next(error);
    });
  };
  routeTable(router, {
    '/openapi.json': { get: [routeName('/openapi.json'), (_req, res) => { res.json(document); }] },
    '/docs': { get: [routeName('/docs'), (_req, res) => { res.type('html').send(page); }] },
    '/docs/init.js': { get: [routeName('/docs/init.js'), (_req, res) => { res.type('js').send(init); }] },
    '/docs/assets/:file': { get: [routeName('/docs/assets/:file'), asset] },
  });
  return router;
}
