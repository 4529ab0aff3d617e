import { readFileSync } from 'node:fs';

// `mongodb://user@host...` or `mongodb+srv://user:password@host...`: the scheme, then the
// user information up to the last `@` before the hosts.
const USER_INFO = /^(mongodb(?:\+srv)?:\/\/)([^@/?#]*)@/u;

/**
 * `uri` with the password read from `file` put after its user name, percent-encoded, so a
 * secret file (a compose or Kubernetes secret) holds the password and the connection
 * string in the environment holds none. Messages name the file, never the URI or password.
 */
export function withPasswordFromFile(uri: string, file: string): string {
  const userInfo = USER_INFO.exec(uri);
  if (userInfo === null) {
    throw new Error('MONGODB_PASSWORD_FILE needs a user name in MONGODB_URI, as in mongodb://USER@host:27017/workplan');
  }
  const [whole, scheme = '', user = ''] = userInfo;
  if (user === '') throw new Error('MONGODB_PASSWORD_FILE needs a user name in MONGODB_URI, as in mongodb://USER@host:27017/workplan');
  if (user.includes(':')) throw new Error('MONGODB_URI holds a password already: drop it, or drop MONGODB_PASSWORD_FILE');
  const password = readPassword(file);
  return `${scheme}${user}:${encodeURIComponent(password)}@${uri.slice(whole.length)}`;
}

/** The file's text without its final line break (the way `echo` and editors end a file). */
function readPassword(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new Error(`MONGODB_PASSWORD_FILE names ${file}, which cannot be read (${code})`, { cause: error });
  }
  const password = text.replace(/\r?\n$/u, '');
  if (password === '') throw new Error(`MONGODB_PASSWORD_FILE names ${file}, which is empty`);
  return password;
}
