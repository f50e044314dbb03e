/**
 * Mission Control's connection strings name their credentials as `$(username)` and `$(password)`
 * (`postgres://$(username):$(password)@db:5432/app`). They are filled in, URL-encoded, in the user part of the database
 * URLs this server hands to a driver as one string, and nowhere else: elsewhere in a URL they would carry a credential
 * into a host name, a path or a query, and an http(s) request never takes credentials from its URL.
 */
const PLACEHOLDER = /\$\((username|password)\)/;
const USER_PART = /^([a-z][a-z0-9+.-]*:)\/\/([^@/?#]*)@/i;
/** The schemes whose URLs go to a database driver whole (urlWithCredentials, the redis probe). */
const FILLED_SCHEMES = new Set(['postgres:', 'postgresql:', 'mysql:', 'redis:', 'rediss:', 'mongodb:', 'mongodb+srv:']);

export const PLACEHOLDER_RULE = '$(username) and $(password) are filled in only in the user part of a postgres, mysql, redis or mongodb URL (scheme://$(username):$(password)@host/…)';

/**
 * Go's mysql DSN (`user:pass@tcp(host:port)/db?parseTime=true`), the form canary-checker's mysql fixtures write, with
 * or without a `mysql://` in front: the host, database and options are those of the mysql:// URL the driver here reads.
 */
const GO_MYSQL_DSN = /^(?:mysql:\/\/)?(?:([^@/\s]*)@)?tcp\(([^()\s/]+)\)\/([^?\s]*)(\?\S*)?$/i;

/** The mysql:// URL of a Go mysql DSN, or null for any other text. */
export function mysqlDsnAsUrl(text: string): string | null {
  const match = GO_MYSQL_DSN.exec(text.trim());
  if (match === null) return null;
  const [, user, address = '', database = '', options = ''] = match;
  return `mysql://${user === undefined ? '' : `${user}@`}${address}/${database}${options}`;
}

/** True when the URL's user part names the credentials by placeholder rather than holding them. */
export function namesCredentials(url: string): boolean {
  return PLACEHOLDER.test(USER_PART.exec(mysqlDsnAsUrl(url) ?? url.trim())?.[2] ?? '');
}

/** Why the placeholders of `url` would not be filled in, or null when it has none or all of them will be. */
export function placeholderProblem(url: string): string | null {
  const text = mysqlDsnAsUrl(url) ?? url.trim();
  if (!PLACEHOLDER.test(text)) return null;
  const userPart = USER_PART.exec(text);
  if (userPart === null || PLACEHOLDER.test(text.slice(userPart[0].length))) return PLACEHOLDER_RULE;
  return FILLED_SCHEMES.has((userPart[1] ?? '').toLowerCase()) ? null : PLACEHOLDER_RULE;
}

/** The URL with its placeholders filled in, URL-encoded; null when it has none. Throws where they would not be filled. */
export function placeCredentials(url: string, username: string | null, password: string | null): string | null {
  const text = mysqlDsnAsUrl(url) ?? url.trim();
  if (!PLACEHOLDER.test(text)) return null;
  const problem = placeholderProblem(text);
  const userPart = USER_PART.exec(text);
  if (problem !== null || userPart === null) throw new Error(problem ?? PLACEHOLDER_RULE);
  const filled = (userPart[2] ?? '').replace(new RegExp(PLACEHOLDER.source, 'g'), (_placeholder, name: string) =>
    encodeURIComponent((name === 'username' ? username : password) ?? ''),
  );
  return `${userPart[1] ?? ''}//${filled}@${text.slice(userPart[0].length)}`;
}

/** A URL with a password in its user part, taken apart: what liftUrlPassword moves out of a check's URL. */
export interface SplitUrlPassword {
  scheme: string;
  username: string;
  password: string;
  /** The URL with `$(password)` where the password stood. */
  withPlaceholder: string;
  /** The URL without its user part. */
  withoutUserPart: string;
}

const USER_AND_PASSWORD = /^([a-z][a-z0-9+.-]*:)\/\/([^/?#@:]*):([^/?#@]+)@/i;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The parts of `scheme://user:password@rest`, or null when the URL holds no password of its own. */
export function splitUrlPassword(url: string): SplitUrlPassword | null {
  const text = url.trim();
  const match = USER_AND_PASSWORD.exec(text);
  if (match === null) return null;
  const [whole, scheme = '', user = '', password = ''] = match;
  if (password === '$(password)') return null;
  const rest = text.slice(whole.length);
  return {
    scheme: scheme.toLowerCase(),
    username: decoded(user),
    password: decoded(password),
    withPlaceholder: `${scheme}//${user}:$(password)@${rest}`,
    withoutUserPart: `${scheme}//${rest}`,
  };
}
