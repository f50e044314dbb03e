import { KratosError, kratosErrors } from './kratos-error';

/** A base no request can name, used only to resolve dot segments of a path that is already known to be ours. */
const RESOLVE_BASE = 'http://return-to.invalid';
/** Enough for any honest encoding; more layers than this is somebody hiding a separator. */
const MAX_DECODE_ROUNDS = 3;
const ENCODED_SEPARATORS = /%(2e|2f|5c|25)/gi;
const ENCODED_SEPARATOR = /%(2e|2f|5c|25)/i;

/** C0 controls and DEL are dropped or rewritten by browsers' URL parsers, and a backslash is read as a slash. */
function reinterpretedByBrowsers(raw: string): boolean {
  return [...raw].some((char) => {
    const code = char.charCodeAt(0);
    return code < 0x20 || code === 0x7f || char === '\\';
  });
}

/**
 * Decodes the escapes of dots, slashes, backslashes and percent signs, layer by layer, so that a consumer decoding
 * the path more eagerly than the browser (a proxy, a router) cannot find a separator the checks did not see. Null
 * when the layers do not end.
 */
function decodeSeparators(path: string): string | null {
  let current = path;
  for (let round = 0; round < MAX_DECODE_ROUNDS; round += 1) {
    const next = current.replace(ENCODED_SEPARATORS, (_escape, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    if (next === current) return current;
    current = next;
  }
  return ENCODED_SEPARATOR.test(current) ? null : current;
}

/** The path with its dot segments resolved, as a browser would before reading it. */
function resolvedPath(path: string): string | null {
  try {
    return new URL(`${RESOLVE_BASE}${path}`).pathname;
  } catch {
    return null;
  }
}

/**
 * Only places on this site, or on an origin the operator listed (OPSDECK_RETURN_TO_ALLOWLIST, `config.returnToAllowlist`,
 * already reduced to origins), may be returned to, or a crafted sign-in link would forward a fresh session's browser to
 * an attacker's page. Accepts a path, or an absolute http(s) URL: one on the console's origin comes back as a path that
 * starts with exactly one slash, one on a listed origin comes back absolute (normalised by the URL parser). Refused:
 * other origins (look-alikes such as `https://allowed.example.evil.test` included) and schemes, credentials in the URL,
 * backslashes and control characters, and any path on this site that resolves, before or after decoding escaped dots
 * and slashes, to `//…` — which a browser would read as another host.
 */
export function parseReturnTo(raw: string | undefined, origin: string, allowlist: readonly string[] = []): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (reinterpretedByBrowsers(raw)) throw kratosErrors.returnToForbidden();
  const relative = raw.startsWith('/') && !raw.startsWith('//');
  if (!relative && !/^https?:\/\//i.test(raw)) throw kratosErrors.returnToForbidden();
  let url: URL;
  let ownOrigin: string;
  try {
    ownOrigin = new URL(origin).origin;
    url = new URL(raw, ownOrigin);
  } catch {
    throw kratosErrors.returnToForbidden();
  }
  if (url.username !== '' || url.password !== '') throw kratosErrors.returnToForbidden();
  if (url.origin !== ownOrigin) {
    // The origin is exact, so the path cannot move the browser elsewhere; what that site does with it is its business.
    if (!allowlist.includes(url.origin)) throw kratosErrors.returnToForbidden();
    return url.href;
  }

  const decoded = decodeSeparators(url.pathname);
  if (decoded === null || decoded.includes('\\')) throw kratosErrors.returnToForbidden();
  for (const path of [url.pathname, decoded]) {
    const resolved = resolvedPath(path);
    if (resolved === null || resolved.startsWith('//')) throw kratosErrors.returnToForbidden();
  }
  return `${url.pathname.replace(/\/{2,}/g, '/')}${url.search}${url.hash}`;
}

/**
 * The Location to send after a flow: the stored return_to checked again (a flow saved by an older version may hold a
 * value the current rules refuse), or the fallback.
 */
export function returnLocation(
  stored: string | null | undefined,
  origin: string,
  fallback: string,
  allowlist: readonly string[] = [],
): string {
  try {
    return parseReturnTo(stored ?? undefined, origin, allowlist) ?? fallback;
  } catch (error) {
    if (error instanceof KratosError) return fallback;
    throw error;
  }
}
