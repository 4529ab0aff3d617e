/**
 * The quality an `Accept` header gives `type` (`type/subtype`, lower case): that of the
 * most specific range matching it (the type itself, then its family's wildcard, then the
 * wildcard of every type), 0 when none does, 1 with no header at all (RFC 9110 12.5.1).
 * Parameters other than `q` are not compared: a client asking for
 * `text/event-stream; charset=utf-8` asks for the stream.
 */
export function qualityOf(accept: string | undefined, type: string): number {
  if (accept === undefined) return 1;
  const family = `${type.slice(0, type.indexOf('/'))}/*`;
  let specificity = -1;
  let quality = 0;
  for (const range of accept.split(',')) {
    const [name = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const matched = name === type ? 2 : name === family ? 1 : name === '*/*' ? 0 : -1;
    if (matched <= specificity) continue;
    specificity = matched;
    quality = weightOf(parameters);
  }
  return quality;
}

/** The `q` of a range's parameters: 1 when absent, 0 when it is no number from 0 to 1. */
function weightOf(parameters: readonly string[]): number {
  const q = parameters.find((parameter) => parameter.startsWith('q='));
  if (q === undefined) return 1;
  const weight = Number(q.slice(2));
  return Number.isFinite(weight) && weight >= 0 && weight <= 1 ? weight : 0;
}
