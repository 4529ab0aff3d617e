export { type Json } from './json.js';
export { docsRouter } from './docs-router.js';
export { openApiDocument } from './document.js';
