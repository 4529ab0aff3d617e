import { HttpFailure } from './http-failure.js';

/**
 * Reads the parameters named in `names` from a request target; any other parameter is
 * ignored. Each must come once, as one text (`q=a&q=b` or `q[a]=1` is refused with
 * INVALID_QUERY, as Express's query parser would make an array or an object of it),
 * percent-encoded UTF-8 with `+` for a space. The target is read here rather than through
 * `req.query`, which a request with no `?` at all then never pays for.
 */
export function queryTextsOf<N extends string>(target: string, names: ReadonlySet<N>): Partial<Record<N, string>> {
  const mark = target.indexOf('?');
  const found: Partial<Record<N, string>> = {};
  if (mark === -1) return found;
  for (const pair of target.slice(mark + 1).split('&')) {
    const equals = pair.indexOf('=');
    const name = decodedOrUndefined(equals === -1 ? pair : pair.slice(0, equals));
    if (name === undefined) continue; // A name that cannot be read is no name of ours.
    const bracket = name.indexOf('[');
    const base = bracket === -1 ? name : name.slice(0, bracket);
    if (!names.has(base as N)) continue;
    if (bracket !== -1 || found[base as N] !== undefined) throw new HttpFailure('INVALID_QUERY', {}, { parameter: base, rule: { kind: 'once' } });
    const value = decodedOrUndefined(equals === -1 ? '' : pair.slice(equals + 1));
    if (value === undefined) throw new HttpFailure('INVALID_QUERY', {}, { parameter: base, rule: { kind: 'percentEncoded' } });
    found[base as N] = value;
  }
  return found;
}

/** A form-encoded component (`+` for a space), or undefined when it is not percent-encoded UTF-8. */
function decodedOrUndefined(component: string): string | undefined {
  try {
    return decodeURIComponent(component.replaceAll('+', ' '));
  } catch {
    return undefined; // Malformed percent-encoding or bytes that are not UTF-8: the caller decides.
  }
}

/** `?name=value&...` of the pairs given, in their order, each value percent-encoded; `''` for none. */
export function queryStringOf(pairs: readonly (readonly [string, string | undefined])[]): string {
  const written = pairs.filter(([, value]) => value !== undefined).map(([name, value = '']) => `${name}=${encodeURIComponent(value)}`);
  return written.length === 0 ? '' : `?${written.join('&')}`;
}
