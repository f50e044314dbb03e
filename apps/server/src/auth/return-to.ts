import { kratosErrors } from './kratos-error';

/**
 * Only places on this site may be returned to, or a crafted sign-in link would forward a fresh session's browser to
 * an attacker's page. Accepts a relative path, or an absolute URL on the request's own origin (reduced to its path).
 */
export function parseReturnTo(raw: string | undefined, origin: string): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  // A backslash or control character lets browsers reinterpret "/\evil.example" as another host.
  if (raw.includes('\\') || [...raw].some((char) => char.charCodeAt(0) < 0x20)) throw kratosErrors.returnToForbidden();
  const relative = raw.startsWith('/') && !raw.startsWith('//');
  if (!relative && !/^https?:\/\//i.test(raw)) throw kratosErrors.returnToForbidden();
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    throw kratosErrors.returnToForbidden();
  }
  if (url.origin !== origin) throw kratosErrors.returnToForbidden();
  return `${url.pathname}${url.search}${url.hash}`;
}
