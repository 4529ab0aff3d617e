import { HttpFailure } from './http-failure.js';

/** The query parameters a list takes (the contract's "Finding records"), as the client wrote them. */
export interface ListParameters {
  readonly q?: string;
  readonly sort?: string;
  readonly count?: boolean;
  /** The opaque cursor of a next page, still encoded. */
  readonly after?: string;
}

type Name = keyof ListParameters;
const NAMES: ReadonlySet<string> = new Set<Name>(['q', 'sort', 'count', 'after']);

/**
 * Reads the list's parameters from the request target; any other parameter is ignored. Each
 * must come once, as one text (`q=a&q=b` or `q[a]=1` is refused, as Express's query parser
 * would make an array or an object of it), percent-encoded UTF-8; `count` is `true` or
 * `false`. The target is read here rather than through `req.query`, which a plain list,
 * with no `?` at all, then never pays for.
 */
export function listParametersOf(target: string): ListParameters {
  const mark = target.indexOf('?');
  if (mark === -1) return {};
  const found: Partial<Record<Name, string>> = {};
  for (const pair of target.slice(mark + 1).split('&')) {
    const equals = pair.indexOf('=');
    const name = decodedOrUndefined(equals === -1 ? pair : pair.slice(0, equals));
    if (name === undefined) continue; // A name that cannot be read is no name of ours.
    const bracket = name.indexOf('[');
    const base = bracket === -1 ? name : name.slice(0, bracket);
    if (!NAMES.has(base)) continue;
    if (bracket !== -1 || found[base as Name] !== undefined) throw new HttpFailure('INVALID_QUERY');
    const value = decodedOrUndefined(equals === -1 ? '' : pair.slice(equals + 1));
    if (value === undefined) throw new HttpFailure('INVALID_QUERY');
    found[base as Name] = value;
  }
  const { count, ...texts } = found;
  return count === undefined ? texts : { ...texts, count: countOf(count) };
}

function countOf(value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new HttpFailure('INVALID_QUERY');
}

/** A form-encoded component (`+` for a space), or undefined when it is not percent-encoded UTF-8. */
function decodedOrUndefined(component: string): string | undefined {
  try {
    return decodeURIComponent(component.replaceAll('+', ' '));
  } catch {
    return undefined; // Malformed percent-encoding or bytes that are not UTF-8: the caller decides.
  }
}

/** The parameters of a next page, in the order they are written, percent-encoded. */
export function queryStringOf(parameters: ListParameters): string {
  const pairs: string[] = [];
  if (parameters.q !== undefined) pairs.push(`q=${encodeURIComponent(parameters.q)}`);
  if (parameters.sort !== undefined) pairs.push(`sort=${encodeURIComponent(parameters.sort)}`);
  if (parameters.count !== undefined) pairs.push(`count=${String(parameters.count)}`);
  if (parameters.after !== undefined) pairs.push(`after=${encodeURIComponent(parameters.after)}`);
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}
