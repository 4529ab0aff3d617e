/** What an operator needs of one error in a failure's chain: its kind, code and message. */
export interface FailureLink {
  readonly name: string;
  /** The server's numeric code (18 for a failed login) or the system's (`ECONNREFUSED`). */
  readonly code?: string | number;
  /** The server's name for its code, such as `AuthenticationFailed`. */
  readonly codeName?: string;
  readonly message: string;
}

// How far down `cause` to follow: the driver wraps a socket error in one or two of its own.
const MAX_DEPTH = 5;

// The password of a connection string (`scheme://user:password@`), wherever it appears.
const PASSWORD_IN_URI = /([a-z][a-z0-9+.-]*:\/\/[^:/?#@\s]*):[^@/?#\s]*@/giu;

/** `text` with the password of every connection string in it replaced by `***`. */
export function redactCredentials(text: string): string {
  return text.replace(PASSWORD_IN_URI, '$1:***@');
}

/**
 * A MongoDB failure as a log line's field: the error and each `cause` under it, with the
 * code and message of each (the name alone says little: `MongoServerSelectionError` is
 * both a wrong port and a wrong password). Passwords of connection strings are redacted.
 */
export function describeFailure(error: unknown): FailureLink[] {
  const chain: FailureLink[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < MAX_DEPTH) {
    if (!(current instanceof Error)) {
      chain.push({ name: typeof current, message: redactCredentials(typeof current === 'string' ? current : JSON.stringify(current)) });
      break;
    }
    const { code, codeName } = current as { code?: unknown; codeName?: unknown };
    chain.push({
      name: current.name,
      ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
      ...(typeof codeName === 'string' ? { codeName } : {}),
      message: redactCredentials(current.message),
    });
    current = current.cause;
  }
  return chain;
}
