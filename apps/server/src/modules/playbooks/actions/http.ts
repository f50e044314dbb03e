import type { IncomingHttpHeaders } from 'node:http';
import { PLAYBOOK_HTTP_METHODS, type HttpAction, type PlaybookActionResult } from '@opsdeck/shared';
import { awsSigningProblem, connectionOriginMessage, httpProbe, leavesConnectionOrigin, MAX_RESPONSE_BYTES, resolveConnection, type ResolvedConnection } from '../../connections';
import { awsSigV4Headers, scrubSecrets, SecretCollector } from '../../health';
import type { ActionOutcome, ActionRunner } from '../types';
import { breaksHeader } from '../../../platform/value-placement';
import { completedOutcome, errorText, failedOutcome, stopMessage } from './action-outcome';

const ABSOLUTE_URL = /^[a-z][a-z0-9+.-]*:\/\//i;

export type RequestTarget = { url: string } | { error: string };

/**
 * Where a request through a connection goes: the connection's URL, a path (and query) under it, or an absolute URL
 * on its origin. Anything that ends up elsewhere is refused: the connection's secret goes only to its own endpoint.
 */
export function connectionRequestUrl(connectionUrl: string, url: string | undefined): RequestTarget {
  const text = url?.trim() ?? '';
  let target: string;
  if (text === '') target = connectionUrl;
  else if (ABSOLUTE_URL.test(text)) target = text;
  else {
    let base: URL;
    try {
      base = new URL(connectionUrl);
    } catch {
      return { error: `The connection's URL '${connectionUrl}' is not a valid URL` };
    }
    const queryAt = text.indexOf('?');
    const relativePath = queryAt === -1 ? text : text.slice(0, queryAt);
    base.pathname = `${base.pathname.replace(/\/+$/, '')}/${relativePath.replace(/^\/+/, '')}`;
    if (queryAt !== -1) base.search = text.slice(queryAt + 1);
    base.hash = '';
    target = base.toString();
  }
  return leavesConnectionOrigin(connectionUrl, target) ? { error: connectionOriginMessage('url') } : { url: target };
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** The URL as the log line shows it: without a user name or password written into it. */
function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}

function addUrlCredentials(url: string, secrets: SecretCollector): void {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') secrets.addCredentials(decodeURIComponent(parsed.username), decodeURIComponent(parsed.password));
  } catch {
    // Not a URL: the request itself reports that.
  }
}

/**
 * The Signature Version 4 headers of the request, from the named aws or s3 connection's keys; refused when the request
 * goes anywhere its keys may not sign for (connection-origin.ts). The keys join the scrub list.
 */
async function signedHeaders(
  sigV4: NonNullable<HttpAction['awsSigV4']>,
  request: { method: string; url: string; headers: Record<string, string>; body: string },
  context: Parameters<ActionRunner>[1],
  secrets: SecretCollector,
): Promise<{ headers: Record<string, string>; insecureTls: boolean } | { error: string }> {
  let aws: ResolvedConnection;
  try {
    aws = await resolveConnection(context.pool, context.secretKey, sigV4.connection);
  } catch (error) {
    return { error: errorText(error) };
  }
  secrets.addConnection(aws);
  if (aws.type !== 'aws' && aws.type !== 's3') return { error: `awsSigV4.connection '${aws.namespace}/${aws.name}' is of type ${aws.type}, not aws or s3` };
  if (aws.username === null || aws.username === '' || aws.password === null || aws.password === '') {
    return { error: `connection '${aws.namespace}/${aws.name}' has no access key and secret key to sign with` };
  }
  const problem = awsSigningProblem(aws, request.url);
  if (problem !== null) return { error: problem };
  const region = sigV4.region ?? aws.properties.region ?? 'us-east-1';
  const headers = awsSigV4Headers(request, { accessKey: aws.username, secretKey: aws.password, region, service: sigV4.service });
  return { headers, insecureTls: aws.insecureTls };
}

async function request(action: Parameters<ActionRunner>[0], context: Parameters<ActionRunner>[1], secrets: SecretCollector): Promise<ActionOutcome> {
  const startedAt = performance.now();
  const spec = action.http;
  if (spec === undefined) throw new Error(`Action '${action.name}' has no http block`);
  let url = spec.url?.trim() ?? '';
  let connection: ResolvedConnection | null = null;
  if (spec.connection !== undefined && spec.connection !== '') {
    try {
      connection = await resolveConnection(context.pool, context.secretKey, spec.connection);
    } catch (error) {
      return failedOutcome(errorText(error));
    }
    secrets.addConnection(connection);
    if (connection.url === null || connection.url === '') return failedOutcome(`Connection ${connection.namespace}/${connection.name} has no URL`);
    const target = connectionRequestUrl(connection.url, spec.url);
    if ('error' in target) return failedOutcome(target.error);
    url = target.url;
  }
  if (url === '') return failedOutcome('No URL: set url or connection');
  addUrlCredentials(url, secrets);
  const method = (spec.method ?? 'GET').toUpperCase();
  if (!(PLAYBOOK_HTTP_METHODS as readonly string[]).includes(method)) return failedOutcome(`The request was not sent: '${method}' is not one of ${PLAYBOOK_HTTP_METHODS.join(', ')}`);
  const headers: Record<string, string> = { 'user-agent': 'opsdeck-playbook' };
  for (const header of spec.headers ?? []) {
    // Sealed values are opened after rendering, so the line-break rule is kept here too, for every header.
    if (breaksHeader(header.value)) return failedOutcome(`The request was not sent: the value of header ${header.name} holds a line break or NUL`);
    headers[header.name] = header.value;
  }
  let insecureTls = connection?.insecureTls ?? false;
  if (spec.awsSigV4 !== undefined) {
    const signed = await signedHeaders(spec.awsSigV4, { method, url, headers, body: typeof spec.body === 'string' ? spec.body : '' }, context, secrets);
    if ('error' in signed) return failedOutcome(`The request was not sent: ${signed.error}`);
    Object.assign(headers, signed.headers);
    insecureTls ||= signed.insecureTls;
  }
  if (context.signal.aborted) return failedOutcome(stopMessage(context.signal, context.timeoutMs, startedAt));
  let response: Awaited<ReturnType<typeof httpProbe>>;
  try {
    response = await httpProbe({
      url,
      method,
      headers,
      body: spec.body,
      username: connection?.username ?? null,
      password: connection?.password ?? null,
      insecureTls,
      timeoutMs: context.timeoutMs,
      maxBytes: MAX_RESPONSE_BYTES,
      signal: context.signal,
    });
  } catch (error) {
    return failedOutcome(context.signal.aborted ? stopMessage(context.signal, context.timeoutMs, startedAt) : errorText(error));
  }
  const responseHeaders = flatHeaders(response.headers);
  const redirect = response.status >= 300 && response.status < 400 ? `; redirects are not followed${response.headers.location === undefined ? '' : ` (Location: ${response.headers.location})`}` : '';
  const result: PlaybookActionResult = {
    logs: `${method} ${shownUrl(url)} → HTTP ${response.status} in ${response.durationMs}ms${redirect}`,
    status: response.status,
    headers: responseHeaders,
    body: response.body,
    ...(response.truncated ? { truncated: true } : {}),
  };
  return response.status >= 200 && response.status < 400 ? completedOutcome(result) : failedOutcome(`HTTP ${response.status}`, result);
}

/**
 * One HTTP request through the bounded client health checks use (connections/probes/bounded-http.ts): redirects are
 * never followed, the body is read up to 1 MB, the exchange ends at the action's timeout (at most that client's own
 * ceiling) or cancel. 2xx and 3xx complete the action. The connection's credentials are scrubbed from everything kept.
 */
export const runHttpAction: ActionRunner = async (action, context) => {
  const secrets = new SecretCollector();
  const outcome = await request(action, context, secrets);
  return scrubSecrets(outcome, secrets.values());
};
