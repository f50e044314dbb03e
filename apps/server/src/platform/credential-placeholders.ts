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

/** True when the URL's user part names the credentials by placeholder rather than holding them. */
export function namesCredentials(url: string): boolean {
  return PLACEHOLDER.test(USER_PART.exec(url.trim())?.[2] ?? '');
}

/** Why the placeholders of `url` would not be filled in, or null when it has none or all of them will be. */
export function placeholderProblem(url: string): string | null {
  const text = url.trim();
  if (!PLACEHOLDER.test(text)) return null;
  const userPart = USER_PART.exec(text);
  if (userPart === null || PLACEHOLDER.test(text.slice(userPart[0].length))) return PLACEHOLDER_RULE;
  return FILLED_SCHEMES.has((userPart[1] ?? '').toLowerCase()) ? null : PLACEHOLDER_RULE;
}

/** The URL with its placeholders filled in, URL-encoded; null when it has none. Throws where they would not be filled. */
export function placeCredentials(url: string, username: string | null, password: string | null): string | null {
  const text = url.trim();
  if (!PLACEHOLDER.test(text)) return null;
  const problem = placeholderProblem(text);
  const userPart = USER_PART.exec(text);
  if (problem !== null || userPart === null) throw new Error(problem ?? PLACEHOLDER_RULE);
  const filled = (userPart[2] ?? '').replace(new RegExp(PLACEHOLDER.source, 'g'), (_placeholder, name: string) =>
    encodeURIComponent((name === 'username' ? username : password) ?? ''),
  );
  return `${userPart[1] ?? ''}//${filled}@${text.slice(userPart[0].length)}`;
}
