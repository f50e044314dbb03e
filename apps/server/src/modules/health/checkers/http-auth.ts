import { createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * The request authentications canary-checker's http check runs beside Basic (duty's HTTP client): Digest access
 * authentication, AWS Signature Version 4 and the OAuth 2 client-credentials grant. Written from RFC 7616, AWS's
 * published signing process and RFC 6749 §4.4; pure functions, so each is tested against the documents' examples.
 */

export interface DigestChallenge {
  realm: string;
  nonce: string;
  opaque: string | null;
  algorithm: string;
  qop: string | null;
}

const DIGEST_HASHES: Readonly<Record<string, 'md5' | 'sha256'>> = {
  MD5: 'md5',
  'MD5-SESS': 'md5',
  'SHA-256': 'sha256',
  'SHA-256-SESS': 'sha256',
};

/** The Digest challenge of a WWW-Authenticate header (one of several schemes may be offered), or null. */
export function parseDigestChallenge(header: string | string[] | undefined): DigestChallenge | null {
  const values = Array.isArray(header) ? header : header === undefined ? [] : [header];
  for (const value of values) {
    const start = value.search(/\bDigest\s+/i);
    if (start < 0) continue;
    const params = new Map<string, string>();
    const pattern = /([a-z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/gi;
    for (const match of value.slice(start).replace(/^Digest\s+/i, '').matchAll(pattern)) {
      params.set((match[1] ?? '').toLowerCase(), (match[2] ?? match[3] ?? '').replace(/\\(.)/g, '$1'));
    }
    const realm = params.get('realm');
    const nonce = params.get('nonce');
    if (realm === undefined || nonce === undefined) continue;
    const qops = (params.get('qop') ?? '').split(',').map((qop) => qop.trim().toLowerCase());
    return {
      realm,
      nonce,
      opaque: params.get('opaque') ?? null,
      algorithm: (params.get('algorithm') ?? 'MD5').toUpperCase(),
      qop: qops.includes('auth') ? 'auth' : null,
    };
  }
  return null;
}

/** Why the challenge cannot be answered here, or null. */
export function digestProblem(challenge: DigestChallenge): string | null {
  if (DIGEST_HASHES[challenge.algorithm] === undefined) return `the server asks for Digest algorithm ${challenge.algorithm}, which is not run here (MD5, SHA-256 and their -sess forms are)`;
  return null;
}

/** The Authorization header answering `challenge` for one request (nonce count 1, a fresh client nonce). */
export function digestAuthorization(
  challenge: DigestChallenge,
  request: { username: string; password: string; method: string; uri: string },
  cnonce: string = randomBytes(16).toString('hex'),
): string {
  const algorithm = DIGEST_HASHES[challenge.algorithm] ?? 'md5';
  const hash = (text: string): string => createHash(algorithm).update(text, 'utf8').digest('hex');
  const nc = '00000001';
  let ha1 = hash(`${request.username}:${challenge.realm}:${request.password}`);
  if (challenge.algorithm.endsWith('-SESS')) ha1 = hash(`${ha1}:${challenge.nonce}:${cnonce}`);
  const ha2 = hash(`${request.method.toUpperCase()}:${request.uri}`);
  const response = challenge.qop === null ? hash(`${ha1}:${challenge.nonce}:${ha2}`) : hash(`${ha1}:${challenge.nonce}:${nc}:${cnonce}:${challenge.qop}:${ha2}`);
  const quote = (text: string): string => `"${text.replace(/(["\\])/g, '\\$1')}"`;
  const parts = [
    `username=${quote(request.username)}`,
    `realm=${quote(challenge.realm)}`,
    `nonce=${quote(challenge.nonce)}`,
    `uri=${quote(request.uri)}`,
    `algorithm=${challenge.algorithm}`,
    `response=${quote(response)}`,
  ];
  if (challenge.qop !== null) parts.push(`qop=${challenge.qop}`, `nc=${nc}`, `cnonce=${quote(cnonce)}`);
  if (challenge.opaque !== null) parts.push(`opaque=${quote(challenge.opaque)}`);
  return `Digest ${parts.join(', ')}`;
}

export interface AwsCredentials {
  accessKey: string;
  secretKey: string;
  sessionToken?: string | undefined;
  region: string;
  service: string;
}

const sha256 = (data: string): string => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: Buffer | string, data: string): Buffer => createHmac('sha256', key).update(data, 'utf8').digest();

/** RFC 3986 encoding as AWS asks for it: every byte but unreserved characters, spaces as %20. */
function awsEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

function canonicalPath(pathname: string): string {
  // The URL parser already normalised the path; each segment is decoded and encoded once (S3 asks for no double encoding either).
  return pathname
    .split('/')
    .map((segment) => {
      try {
        return awsEncode(decodeURIComponent(segment));
      } catch {
        return awsEncode(segment);
      }
    })
    .join('/');
}

function canonicalQuery(search: URLSearchParams): string {
  return [...search.entries()]
    .map(([name, value]) => [awsEncode(name), awsEncode(value)] as const)
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

/**
 * The headers that sign one request: Authorization, X-Amz-Date, X-Amz-Content-Sha256 for S3 and, with a session
 * token, X-Amz-Security-Token. Every header the request sends is signed, so none can be changed on the way.
 */
export function awsSigV4Headers(
  request: { method: string; url: string; headers: Readonly<Record<string, string>>; body: string },
  credentials: AwsCredentials,
  now: Date = new Date(),
): Record<string, string> {
  const url = new URL(request.url);
  const amzDate = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const payloadHash = sha256(request.body);
  const added: Record<string, string> = { 'x-amz-date': amzDate };
  // S3 alone requires the payload hash as a header; other services take the canonical request's last line.
  if (credentials.service === 's3') added['x-amz-content-sha256'] = payloadHash;
  if (credentials.sessionToken !== undefined && credentials.sessionToken !== '') added['x-amz-security-token'] = credentials.sessionToken;
  const signed = new Map<string, string>();
  for (const [name, value] of Object.entries({ ...request.headers, ...added })) signed.set(name.toLowerCase(), value.trim().replace(/\s+/g, ' '));
  signed.set('host', url.host);
  const names = [...signed.keys()].sort();
  const canonicalRequest = [
    request.method.toUpperCase(),
    canonicalPath(url.pathname === '' ? '/' : url.pathname),
    canonicalQuery(url.searchParams),
    names.map((name) => `${name}:${signed.get(name) ?? ''}\n`).join(''),
    names.join(';'),
    payloadHash,
  ].join('\n');
  const scope = `${day}/${credentials.region}/${credentials.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${credentials.secretKey}`, day), credentials.region), credentials.service), 'aws4_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');
  return {
    ...added,
    authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKey}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`,
  };
}

/** The form body of a client-credentials token request; the client authenticates with Basic (RFC 6749 §2.3.1). */
export function tokenRequestBody(scope: readonly string[] | undefined, params: Readonly<Record<string, string>> | undefined): string {
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  if (scope !== undefined && scope.length > 0) form.set('scope', scope.join(' '));
  for (const [name, value] of Object.entries(params ?? {})) form.set(name, value);
  return form.toString();
}

/** The access token of a token endpoint's answer, or why there is none (never the answer itself: it may echo a secret). */
export function accessTokenOf(status: number, body: string): { token: string } | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { error: `the token endpoint answered ${status} without JSON` };
  }
  const record = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  if (status >= 200 && status < 300 && typeof record.access_token === 'string' && record.access_token !== '') return { token: record.access_token };
  const reason = typeof record.error === 'string' ? `: ${record.error}` : '';
  return { error: `the token endpoint answered ${status} without an access token${reason}` };
}
