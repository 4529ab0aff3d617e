import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

// Holds what a service answered against its OpenAPI document (the drift test's oracle).

/** A piece of an OpenAPI document: a JSON object. */
export type Json = { readonly [key: string]: unknown };

/** Checks a value against a JSON Schema (2020-12): the errors, none when it passes. */
export type SchemaCheck = (schema: Json, value: unknown) => readonly string[];

/** One exchange with the service, as a test saw it. */
export interface Exchange {
  readonly method: string;
  /** The path as sent, without the query. */
  readonly path: string;
  /** The query string as sent, without the `?`; none when unset. */
  readonly query?: string;
  readonly requestBody?: unknown;
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
  readonly json: unknown;
}

/** What the document says of an exchange: the response it matched, and every disagreement. */
export interface Verdict {
  /** `METHOD /template STATUS`, or `* * STATUS` for the answers of no operation. */
  readonly response: string;
  readonly problems: readonly string[];
}

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function member(value: unknown, key: string): unknown {
  return isJson(value) ? value[key] : undefined;
}

function asJson(value: unknown): Json {
  return isJson(value) ? value : {};
}

/** Follows a local `$ref` (`#/components/...`) to what it names. */
function resolve(document: Json, value: unknown): Json {
  const target = member(value, '$ref');
  if (typeof target !== 'string') return asJson(value);
  const path = target.replace(/^#\//u, '').split('/').map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  return asJson(path.reduce<unknown>((node, segment) => member(node, segment), document));
}

/** The path template the service routes `path` to, matching as Express does: any case, one optional trailing slash. */
export function templateOf(document: Json, path: string): string | undefined {
  const templates = Object.keys(asJson(document.paths)).sort((a, b) => a.split('{').length - b.split('{').length);
  return templates.find((template) => {
    const pattern = template.split(/\{[^}]+\}/u).map((s) => s.replace(/[.*+?^$()|[\]\\]/gu, '\\$&')).join('[^/]+');
    return new RegExp(`^${pattern}/?$`, 'iu').test(path);
  });
}

/** Holds one exchange against the document: status listed, headers, media type, body, and (on success) the request. */
export function judge(document: Json, check: SchemaCheck, exchange: Exchange): Verdict {
  const method = exchange.method.toLowerCase();
  const template = templateOf(document, exchange.path);
  const responses = asJson(asJson(document.components).responses);
  const operation = template === undefined ? undefined : member(member(document.paths, template), method);
  let response: Json | undefined;
  let name: string;
  if (template === undefined || operation === undefined) {
    const fallback = template === undefined ? ['RouteNotFound', 404] : ['MethodNotAllowed', 405];
    name = `* * ${exchange.status}`;
    response = exchange.status === fallback[1] ? resolve(document, responses[String(fallback[0])]) : undefined;
  } else {
    name = `${method.toUpperCase()} ${template} ${exchange.status}`;
    const listed = member(member(operation, 'responses'), String(exchange.status));
    response = listed === undefined ? undefined : resolve(document, listed);
  }
  if (response === undefined) return { response: name, problems: [`${name}: status not in the document`] };
  const problems = [...headerProblems(document, check, response, exchange), ...bodyProblems(check, response, exchange)];
  if (exchange.status < 300 && operation !== undefined) problems.push(...requestProblems(document, check, operation, exchange));
  return { response: name, problems: problems.map((p) => `${name}: ${p}`) };
}

function headerProblems(document: Json, check: SchemaCheck, response: Json, exchange: Exchange): string[] {
  return Object.entries(asJson(response.headers)).flatMap(([header, definition]) => {
    const { required, schema } = resolve(document, definition);
    const value = exchange.headers[header.toLowerCase()];
    if (value === undefined) return required === true ? [`header ${header} missing`] : [];
    return check(asJson(schema), value).map((e) => `header ${header}: ${e}`);
  });
}

function bodyProblems(check: SchemaCheck, response: Json, exchange: Exchange): string[] {
  if (exchange.method.toUpperCase() === 'HEAD') return []; // No body is read after HEAD.
  const content = member(response, 'content');
  if (content === undefined) return exchange.text === '' ? [] : ['a body where the document lists none'];
  const type = String(exchange.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const media = member(content, type);
  if (media === undefined) return [`media type "${type}" not in the document`];
  const schema = asJson(member(media, 'schema'));
  return type === 'application/json' ? check(schema, exchange.json).map((e) => `body: ${e}`) : [];
}

function requestProblems(document: Json, check: SchemaCheck, operation: unknown, exchange: Exchange): string[] {
  const template = templateOf(document, exchange.path) ?? '';
  const pathItem = member(document.paths, template);
  const segments = exchange.path.replace(/\/$/u, '').split('/');
  const declared = [member(pathItem, 'parameters'), member(operation, 'parameters')].flatMap((p): unknown[] => (Array.isArray(p) ? p : []));
  const query = new URLSearchParams(exchange.query ?? '');
  const problems = declared.flatMap((definition) => {
    const { name, schema, in: where } = resolve(document, definition);
    const value = where === 'path' ? segments[template.split('/').indexOf(`{${String(name)}}`)] : query.get(String(name));
    // The exchange records the path and query it sent, not its headers: header parameters are the sender's business.
    if (where === 'header' || (where === 'query' && value === null)) return [];
    return check(asJson(schema), value).map((e) => `parameter ${String(name)}: ${e}`);
  });
  const body = member(member(member(operation, 'requestBody'), 'content'), 'application/json');
  if (body !== undefined) problems.push(...check(asJson(member(body, 'schema')), exchange.requestBody).map((e) => `request body: ${e}`));
  return problems;
}

/**
 * The schema check of `document` (JSON Schema 2020-12, with formats): each schema compiled
 * once, with the document's components put in as `$defs` so a response's schema compiles alone.
 */
export function schemaCheckOf(document: Json): SchemaCheck {
  const ajv = new Ajv2020.default({ strict: true, allErrors: true });
  addFormats.default(ajv);
  const defs = asDefs(document.components);
  const compiled = new WeakMap<Json, ValidateFunction>();
  return (schema, value) => {
    let validate = compiled.get(schema);
    if (validate === undefined) {
      validate = ajv.compile(JSON.parse(JSON.stringify({ $defs: defs, ...schema }).replaceAll('"#/components/schemas/', '"#/$defs/')) as object);
      compiled.set(schema, validate);
    }
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
  };
}

function asDefs(components: unknown): unknown {
  return typeof components === 'object' && components !== null && 'schemas' in components ? components.schemas : {};
}
