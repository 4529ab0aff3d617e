export { apiResources, type ApiResource } from './api-resources.js';
export { type Json } from './components.js';
export { docsRouter } from './docs-router.js';
export { openApiDocument } from './document.js';
export { judge, templateOf, type Exchange, type SchemaCheck, type Verdict } from './conformance.js';
