/** The default port of each scheme a check or connection URL uses, so `https://h` and `https://h:443` are one origin. */
const DEFAULT_PORTS: Record<string, string> = {
  'http:': '80',
  'https:': '443',
  'postgres:': '5432',
  'postgresql:': '5432',
  'mysql:': '3306',
  'redis:': '6379',
  'rediss:': '6379',
  'mongodb:': '27017',
};

/**
 * Where the token of a hosted service's connection belongs when the connection names no URL: a GitHub or Azure DevOps
 * personal access token goes to that service and nowhere else.
 */
const HOSTED_ORIGINS: Readonly<Record<string, string>> = { github: 'https://github.com', azure_devops: 'https://dev.azure.com' };

/** The URL a connection's credentials belong to: its own, or its hosted service's. */
export function credentialUrlOf(connection: { type: string; url: string | null }): string | null {
  return connection.url ?? HOSTED_ORIGINS[connection.type] ?? null;
}

/** Spec fields that name where a check goes; a check that names a connection may only point them at its origin. */
export const TARGET_FIELDS = ['url', 'endpoint', 'addr'] as const;

/**
 * scheme://host:port of a URL (a bare host:port counts as having the connection's scheme); null when there is none.
 * Lower-cased, default ports filled in, credentials and path dropped.
 */
export function originOf(raw: string | null | undefined, schemeIfBare?: string): string | null {
  if (raw === null || raw === undefined || raw.trim() === '') return null;
  const text = raw.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : schemeIfBare === undefined ? null : `${schemeIfBare}//${text}`;
  if (withScheme === null) return null;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  const scheme = url.protocol.toLowerCase();
  const host = url.hostname.toLowerCase();
  if (host === '') return null;
  const port = url.port === '' ? (DEFAULT_PORTS[scheme] ?? '') : url.port;
  return `${scheme}//${host}${port === '' ? '' : `:${port}`}`;
}

function schemeOf(raw: string | null): string | undefined {
  const match = raw === null ? null : /^([a-z][a-z0-9+.-]*:)\/\//i.exec(raw.trim());
  return match?.[1]?.toLowerCase();
}

/**
 * True when `target` (a check's url, endpoint or addr) leaves the origin of the connection's URL. A connection
 * without a URL has no origin its credentials may go to, so any target leaves it.
 */
export function leavesConnectionOrigin(connectionUrl: string | null, target: string): boolean {
  const own = originOf(connectionUrl);
  return own === null || originOf(target, schemeOf(connectionUrl)) !== own;
}

export function connectionOriginMessage(field: string): string {
  return `${field} must stay on the origin (scheme, host and port) of the connection the check names: its credentials are sent nowhere else`;
}

const AWS_HOST = /(^|\.)amazonaws\.com(\.cn)?$/i;

/** Whether the URL is on one of AWS's own endpoints (`*.amazonaws.com`, `*.amazonaws.com.cn`), over https. */
export function isAwsEndpoint(target: string): boolean {
  try {
    const url = new URL(target);
    return url.protocol === 'https:' && AWS_HOST.test(url.hostname);
  } catch {
    return false;
  }
}

/**
 * Why a stored aws or s3 connection's keys may not sign a request to `target`, or null. They sign for the connection's
 * own endpoint when it names one, else for AWS's endpoints alone: a secret key only signs, but a signature sent
 * elsewhere is a request that server could replay to AWS.
 */
export function awsSigningProblem(connection: { name: string; url: string | null }, target: string): string | null {
  const own = originOf(connection.url);
  if (own !== null) return originOf(target) === own ? null : `${target} is not on the endpoint of connection '${connection.name}' (${own}): its keys sign for it alone`;
  return isAwsEndpoint(target) ? null : `connection '${connection.name}' holds AWS keys, which sign for AWS endpoints (https://*.amazonaws.com) only, not ${target}`;
}
