import net from 'node:net';
import dns from 'node:dns/promises';
import { spawn } from 'node:child_process';
import { connectionOriginMessage, leavesConnectionOrigin, httpProbe, type HttpProbeResponse } from '../../connections';
import { durationFromNanos } from '../../../platform/cel/cel-functions';
import { parseDurationMs, type DnsCheckSpec, type HttpCheckSpec, type IcmpCheckSpec, type TcpCheckSpec } from '@opsdeck/shared';
import { renderCheckTemplate } from '../check-template';
import { failed, withThreshold, type CheckerContext, type CheckOutcome } from './checker';
import { crawl, MAX_CRAWL_PAGES } from './http-crawl';
import { accessTokenOf, awsSigV4Headers, digestAuthorization, digestProblem, parseDigestChallenge, tokenRequestBody } from './http-auth';

const DAY_MS = 86_400_000;

/** canary-checker's crawl result: `Visited: N`, and the check fails listing the pages that did not answer 2xx. */
async function crawlCheck(url: string, spec: HttpCheckSpec, insecureTls: boolean, context: CheckerContext): Promise<CheckOutcome> {
  const crawlSpec = spec.crawl ?? {};
  const result = await crawl(
    url,
    {
      ...crawlSpec,
      delay: crawlSpec.delay === undefined ? undefined : (parseDurationMs(crawlSpec.delay) ?? undefined),
      randomDelay: crawlSpec.randomDelay === undefined ? undefined : (parseDurationMs(crawlSpec.randomDelay) ?? undefined),
    },
    { insecureTls, timeoutMs: context.timeoutMs, signal: context.signal },
  );
  const data = { missing: result.missing, visited: result.visited };
  const message = `Visited: ${result.visited}${result.missing.length > 0 ? `, Missing: ${result.missing.length}` : ''}${result.capped ? ` (stopped at ${MAX_CRAWL_PAGES} pages)` : ''}`;
  const details = { visited: result.visited, missing: result.missing.slice(0, 100) };
  if (result.missing.length > 0) return { ...failed(message, details), data };
  return { pass: true, message, details, data };
}

export async function runHttpCheck(spec: HttpCheckSpec, context: CheckerContext): Promise<CheckOutcome> {
  let url = spec.url ?? spec.endpoint;
  let username = spec.authentication?.username ?? spec.username ?? null;
  let password = spec.authentication?.password ?? spec.password ?? null;
  let insecureTls = spec.tlsConfig?.insecureSkipVerify ?? false;
  if (spec.connection !== undefined) {
    const connection = await context.resolveConnection(spec.connection);
    // Refused at save too; this keeps a spec stored before the rule from sending the credentials elsewhere.
    if (url !== undefined && url !== '' && leavesConnectionOrigin(connection.url, url)) return failed(connectionOriginMessage(spec.url === undefined ? 'endpoint' : 'url'));
    url ??= connection.url ?? undefined;
    username ??= connection.username;
    password ??= connection.password;
    insecureTls ||= connection.insecureTls;
  }
  if (url === undefined || url === '') return failed('No URL: set url, endpoint or connection');
  if (spec.crawl !== undefined) return crawlCheck(url, spec, insecureTls, context);
  let body = spec.body;
  if (spec.templateBody === true && body !== undefined) {
    // canary-checker's order: canary and check first, the env values over them.
    const variables = { canary: context.identity?.canary ?? {}, check: context.identity?.check ?? {}, ...Object.fromEntries((spec.env ?? []).map((entry) => [entry.name, entry.value])) };
    try {
      body = renderCheckTemplate(body, variables, context.lastResult);
    } catch (error) {
      return failed(`failed to template request body: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const exchange = await authenticatedExchange(spec, { url, body, username, password, insecureTls }, context);
  if ('error' in exchange) return failed(exchange.error);
  const { response } = exchange;
  const details: Record<string, unknown> = { code: response.status, bytes: Buffer.byteLength(response.body), truncated: response.truncated };
  const sslDays = response.certificateExpiresAt === null ? null : Math.floor((response.certificateExpiresAt.getTime() - Date.now()) / DAY_MS);
  if (sslDays !== null) details.sslExpiryDays = sslDays;
  const summary = `HTTP ${response.status} in ${response.durationMs}ms`;
  const json = responseJson(response);
  // canary-checker fails a JSON answer that does not parse, unless a test expression is there to judge it.
  if (json.invalid !== null && context.hasTestExpression !== true) return { ...failed(`${summary}; invalid json response: ${json.invalid}`, details), durationMs: response.durationMs };
  const data = {
    code: response.status,
    headers: canonicalHeaders(response.headers),
    elapsed: durationFromNanos(response.durationMs * 1e6),
    sslAge: durationFromNanos(response.certificateExpiresAt === null ? 0 : (response.certificateExpiresAt.getTime() - Date.now()) * 1e6),
    json: json.value,
    content: response.body,
  };
  const codesOk = spec.responseCodes === undefined || spec.responseCodes.length === 0 ? response.status >= 200 && response.status < 400 : spec.responseCodes.includes(response.status);
  let outcome: CheckOutcome;
  if (!codesOk) {
    const expected = spec.responseCodes === undefined || spec.responseCodes.length === 0 ? '2xx or 3xx' : spec.responseCodes.join(', ');
    outcome = failed(`${summary}; expected ${expected}`, details);
  } else if (spec.responseContent !== undefined && !response.body.includes(spec.responseContent)) {
    outcome = failed(`${summary}; the response does not contain '${spec.responseContent}'`, details);
  } else if (spec.maxSSLExpiry !== undefined && sslDays !== null && sslDays < spec.maxSSLExpiry) {
    outcome = failed(`${summary}; the SSL certificate expires in ${sslDays} days (minimum ${spec.maxSSLExpiry})`, details);
  } else {
    outcome = { pass: true, message: summary, details };
  }
  return { ...withThreshold(outcome, response.durationMs, spec.thresholdMillis), durationMs: response.durationMs, data };
}

interface HttpRequestParts {
  url: string;
  body: string | undefined;
  username: string | null;
  password: string | null;
  insecureTls: boolean;
}

/**
 * The check's request, authenticated as its spec says: Basic (username and password), Digest (the challenge of a first
 * request answered by a second), AWS Signature V4, or an OAuth 2 client-credentials token fetched from tokenURL. The
 * schema allows one of the last three at a time. The client secret of oauth2 goes to tokenURL only; the answer of the
 * token endpoint is never shown, since a misbehaving one may echo what it was sent.
 */
async function authenticatedExchange(spec: HttpCheckSpec, parts: HttpRequestParts, context: CheckerContext): Promise<{ response: HttpProbeResponse } | { error: string }> {
  const base = {
    method: spec.method,
    body: parts.body,
    insecureTls: parts.insecureTls,
    ca: spec.tlsConfig?.ca,
    cert: spec.tlsConfig?.cert,
    key: spec.tlsConfig?.key,
    timeoutMs: context.timeoutMs,
    signal: context.signal,
  };
  const headers: Record<string, string> = { ...(spec.headers ?? {}) };
  const probe = (extra: Record<string, string>, basic: boolean) =>
    httpProbe({ ...base, url: parts.url, headers: { ...headers, ...extra }, username: basic ? parts.username : null, password: basic ? parts.password : null });
  if (spec.awsSigV4 !== undefined) {
    const { accessKey, secretKey, sessionToken, region, service } = spec.awsSigV4;
    const signed = awsSigV4Headers({ method: spec.method, url: parts.url, headers, body: parts.body ?? '' }, { accessKey, secretKey, sessionToken, region, service });
    return { response: await probe(signed, false) };
  }
  if (spec.oauth2 !== undefined) {
    const tokenAnswer = await httpProbe({
      ...base,
      url: spec.oauth2.tokenURL,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: tokenRequestBody(spec.oauth2.scope, spec.oauth2.params),
      username: parts.username,
      password: parts.password,
    });
    const token = accessTokenOf(tokenAnswer.status, tokenAnswer.body);
    if ('error' in token) return { error: `oauth2: ${token.error}` };
    return { response: await probe({ authorization: `Bearer ${token.token}` }, false) };
  }
  if (spec.digest === true) {
    const first = await probe({}, false);
    if (first.status !== 401) return { response: first };
    const challenge = parseDigestChallenge(first.headers['www-authenticate']);
    if (challenge === null) return { response: first };
    const problem = digestProblem(challenge);
    if (problem !== null) return { error: problem };
    const target = new URL(parts.url);
    const authorization = digestAuthorization(challenge, { username: parts.username ?? '', password: parts.password ?? '', method: spec.method, uri: `${target.pathname}${target.search}` });
    const second = await probe({ authorization }, false);
    return { response: { ...second, durationMs: first.durationMs + second.durationMs } };
  }
  return { response: await probe({}, true) };
}

/** Header names as Go's net/http writes them (`Content-Type`), so `headers['Location']` reads as in canary-checker. */
export function canonicalHeaders(headers: HttpProbeResponse['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const canonical = name.toLowerCase().replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`);
    out[canonical] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** The parsed body of a JSON answer ({} otherwise, as canary-checker), and why it did not parse if it did not. */
function responseJson(response: HttpProbeResponse): { value: unknown; invalid: string | null } {
  const type = response.headers['content-type'] ?? '';
  if (!/[/+]json\b/i.test(type)) return { value: {}, invalid: null };
  try {
    return { value: JSON.parse(response.body) as unknown, invalid: null };
  } catch (error) {
    return { value: {}, invalid: error instanceof Error ? error.message : String(error) };
  }
}

export function parseHostPort(endpoint: string): { host: string; port: number } | null {
  const stripped = endpoint.replace(/^[a-z]+:\/\//i, '').replace(/\/.*$/, '');
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(stripped);
  if (match === null) return null;
  const port = Number(match[2]);
  return port > 0 && port < 65536 ? { host: (match[1] ?? '').replace(/^\[|\]$/g, ''), port } : null;
}

export async function runTcpCheck(spec: TcpCheckSpec, context: CheckerContext): Promise<CheckOutcome> {
  const endpoint = spec.endpoint ?? spec.url ?? '';
  const target = parseHostPort(endpoint);
  if (target === null) return failed(`Invalid endpoint '${endpoint}': expected host:port`);
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect({ host: target.host, port: target.port });
    const timer = setTimeout(() => socket.destroy(new Error(`Connection to ${endpoint} timed out after ${context.timeoutMs}ms`)), context.timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve();
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
  const durationMs = Math.round(performance.now() - started);
  return { ...withThreshold({ pass: true, message: `Connected to ${target.host}:${target.port} in ${durationMs}ms` }, durationMs, spec.thresholdMillis), durationMs };
}

function recordText(record: unknown): string {
  if (typeof record === 'string') return record;
  if (Array.isArray(record)) return record.join('');
  if (typeof record === 'object' && record !== null) {
    const r = record as Record<string, unknown>;
    if ('exchange' in r) return `${String(r.priority)} ${String(r.exchange)}`;
    if ('name' in r && 'port' in r) return `${String(r.priority)} ${String(r.weight)} ${String(r.port)} ${String(r.name)}`;
    if ('address' in r) return String(r.address);
  }
  return JSON.stringify(record);
}

async function resolveRecords(spec: DnsCheckSpec, timeoutMs: number): Promise<string[]> {
  if (spec.server === undefined && (spec.querytype === 'A' || spec.querytype === 'AAAA')) {
    // Without a named server the system resolver answers, /etc/hosts included (as every other program on the host sees it).
    const found = await dns.lookup(spec.query, { all: true, family: spec.querytype === 'A' ? 4 : 6 });
    return found.map((entry) => entry.address);
  }
  const resolver = new dns.Resolver({ timeout: Math.min(timeoutMs, 10_000), tries: 1 });
  if (spec.server !== undefined) {
    const server = spec.server.includes(':') && !spec.server.startsWith('[') ? `[${spec.server}]` : spec.server;
    resolver.setServers([`${server}:${spec.port ?? 53}`]);
  }
  const records: unknown = await resolver.resolve(spec.query, spec.querytype);
  return Array.isArray(records) ? records.map(recordText) : [recordText(records)];
}

export async function runDnsCheck(spec: DnsCheckSpec, context: CheckerContext): Promise<CheckOutcome> {
  const started = performance.now();
  const records = await resolveRecords(spec, context.timeoutMs);
  const durationMs = Math.round(performance.now() - started);
  const details = { records };
  const summary = `${spec.querytype} ${spec.query}: ${records.length === 0 ? 'no records' : records.join(', ')}`;
  let outcome: CheckOutcome = { pass: true, message: summary, details };
  if (spec.minrecords !== undefined && records.length < spec.minrecords) {
    outcome = failed(`${summary}; expected at least ${spec.minrecords} records`, details);
  } else if (spec.exactreply !== undefined && spec.exactreply.length > 0) {
    const want = [...spec.exactreply].sort();
    const got = [...records].sort();
    if (want.length !== got.length || want.some((value, index) => value !== got[index])) {
      outcome = failed(`${summary}; expected exactly ${want.join(', ')}`, details);
    }
  }
  outcome = { ...outcome, data: { results: { records } } };
  return { ...withThreshold(outcome, durationMs, spec.thresholdMillis), durationMs };
}

/** Runs the system ping (iputils) and reads the loss and average round trip from its summary. */
export async function runIcmpCheck(spec: IcmpCheckSpec, context: CheckerContext): Promise<CheckOutcome> {
  const waitSeconds = Math.max(1, Math.ceil(Math.min(context.timeoutMs, 10_000) / 1000));
  const output = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn('ping', ['-n', '-c', String(spec.packetCount), '-i', '0.2', '-W', String(waitSeconds), '--', spec.endpoint], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length < 65536) stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 65536) stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), context.timeoutMs + spec.packetCount * 1000);
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(error.code === 'ENOENT' ? new Error('The ping command is not installed on this server') : error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
  const loss = /([\d.]+)% packet loss/.exec(output.stdout);
  if (loss === null) return failed(output.stderr.trim() || `ping exited with code ${String(output.code)}`);
  const packetLoss = Number(loss[1]);
  const rtt = /= [\d.]+\/([\d.]+)\/[\d.]+/.exec(output.stdout);
  const averageMs = rtt === null ? null : Number(rtt[1]);
  const details = { packetLoss, averageMs };
  const summary = `${spec.endpoint}: ${packetLoss}% packet loss${averageMs === null ? '' : `, average ${averageMs}ms`}`;
  const durationMs = averageMs === null ? undefined : Math.round(averageMs);
  if (packetLoss > spec.packetLossThreshold) {
    return { ...failed(`${summary}; above the threshold of ${spec.packetLossThreshold}%`, details), ...(durationMs === undefined ? {} : { durationMs }) };
  }
  const outcome = withThreshold({ pass: true, message: summary, details }, averageMs ?? 0, spec.thresholdMillis);
  return durationMs === undefined ? outcome : { ...outcome, durationMs };
}
