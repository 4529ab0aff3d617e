export { type Json } from './components.js';
export { docsRouter } from './docs-router.js';
export { openApiDocument } from './document.js';
