import { connectionOriginMessage, connectionUrlOf, leavesConnectionOrigin, resolveConnection, type ResolvedConnection } from '../../connections';
import { resolveValueReferences, ValueReferenceError, type SecretCollector } from '../../health';
import { renderGoTemplate } from '../../../platform/go-template/render';
import { markValue, placeInUrl } from '../../../platform/value-placement';
import { openScraperEntry } from '../scraper-secrets';
import type { SourceContext, SourceEntry, SourceRunner } from '../types';
import { ExtractError, parseDocuments, type ItemCollector } from './extract';
import { isRecord } from '../../../platform/json-values';
import { secretScrubbingRunner } from './scrubbed-source';
import { evaluateCel } from '../transform/scrape-cel';
import { MAX_PAGES, parseDurationMs } from '@opsdeck/shared';

export const HTTP_TIMEOUT_MS = 30_000;
export const MAX_HTTP_BYTES = 10 * 1024 * 1024;
/** A url template is short: a few steps and a URL's length are all it may take. */
const URL_TEMPLATE_STEPS = 10_000;
const URL_TEMPLATE_OUTPUT = 8 * 1024;

/** `headers` as Mission Control's `[{name, value}]` list or as a plain map; `valueFrom` references are not resolved here. */
export function headersOf(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (raw === undefined || raw === null) return out;
  const entries: Array<[string, unknown]> = Array.isArray(raw)
    ? raw.map((entry: unknown) => {
        if (!isRecord(entry) || typeof entry.name !== 'string') throw new ExtractError('headers entries need a name');
        if (entry.valueFrom !== undefined && entry.value === undefined) {
          throw new ExtractError(`header '${entry.name}': valueFrom is not resolved by this server; give the value (it is stored sealed)`);
        }
        return [entry.name, entry.value];
      })
    : isRecord(raw)
      ? Object.entries(raw)
      : [];
  for (const [name, value] of entries) {
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') throw new ExtractError(`header '${name}' has no value`);
    out[name.toLowerCase()] = String(value);
  }
  return out;
}

/** A secret-capable field once opened: the text itself, or `{value}`. */
function secretText(raw: unknown): string | null {
  if (typeof raw === 'string') return raw === '' ? null : raw;
  return isRecord(raw) && typeof raw.value === 'string' && raw.value !== '' ? raw.value : null;
}

function bodyOf(raw: unknown): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  return typeof raw === 'string' ? raw : JSON.stringify(raw);
}

function authorizationOf(connection: ResolvedConnection): string | null {
  if (connection.username !== null && connection.username !== '') {
    return `Basic ${Buffer.from(`${connection.username}:${connection.password ?? ''}`, 'utf8').toString('base64')}`;
  }
  if (connection.password !== null && connection.password !== '') return `Bearer ${connection.password}`;
  return null;
}

/** Reads the body up to the cap; a larger answer is refused whole rather than parsed cut. */
async function readBody(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > MAX_HTTP_BYTES) throw new Error(`the response is larger than ${MAX_HTTP_BYTES / 1024 / 1024} MB (${declared} bytes)`);
  if (response.body === null) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > MAX_HTTP_BYTES) {
      await response.body.cancel().catch(() => undefined);
      throw new Error(`the response is larger than ${MAX_HTTP_BYTES / 1024 / 1024} MB`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function formatOf(response: Response): 'json' | 'yaml' {
  return /yaml/i.test(response.headers.get('content-type') ?? '') ? 'yaml' : 'json';
}

interface Request {
  url: string;
  init: RequestInit;
}

async function buildRequest(spec: Record<string, unknown>, context: SourceContext, secrets: SecretCollector): Promise<Request> {
  const headers = headersOf(spec.headers);
  let url = typeof spec.url === 'string' && spec.url !== '' ? spec.url : null;
  if (typeof spec.connection === 'string' && spec.connection !== '') {
    const connection = await resolveConnection(context.pool, context.secretKey, spec.connection);
    secrets.addConnection(connection);
    // The connection's credentials go to its own origin only; a url elsewhere is refused rather than sent bare.
    if (url !== null && leavesConnectionOrigin(connection.url, url)) throw new Error(connectionOriginMessage('url'));
    url ??= connection.url;
    const authorization = authorizationOf(connection);
    if (authorization !== null && headers.authorization === undefined) headers.authorization = authorization;
  }
  if (url === null) throw new Error('no URL: set url or connection');
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`unsupported URL scheme '${parsed.protocol}' (http or https expected)`);
  // fetch refuses a URL with credentials in it; they become the Basic auth header they stand for.
  if (parsed.username !== '' || parsed.password !== '') {
    const user = decodeURIComponent(parsed.username);
    const password = decodeURIComponent(parsed.password);
    secrets.addCredentials(user, password);
    headers.authorization ??= `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
    parsed.username = '';
    parsed.password = '';
  }
  // The entry's own username and password (opened from their seals) are Basic auth, as config-db's HTTPConnection has it.
  const username = secretText(spec.username);
  const password = secretText(spec.password);
  if ((username !== null || password !== null) && headers.authorization === undefined) {
    secrets.addCredentials(username ?? '', password ?? '');
    headers.authorization = `Basic ${Buffer.from(`${username ?? ''}:${password ?? ''}`, 'utf8').toString('base64')}`;
  }
  const method = typeof spec.method === 'string' && spec.method !== '' ? spec.method.toUpperCase() : 'GET';
  const body = bodyOf(spec.body);
  return { url: parsed.toString(), init: { method, headers, redirect: 'manual', ...(body === undefined ? {} : { body }) } };
}

/**
 * config-db's `env`: each value (a `valueFrom` read from its stored connection, ADR 0075, and only for a url on that
 * connection's origin) is what `{{.name}}` reads in the url, percent-encoded where it stands (platform/value-placement).
 */
async function withEnvironment(spec: Record<string, unknown>, context: SourceContext, secrets: SecretCollector): Promise<Record<string, unknown>> {
  if (!Array.isArray(spec.env)) return spec;
  let resolved: Record<string, unknown>;
  try {
    const references = await resolveValueReferences(
      spec,
      context.namespace,
      async (reference) => {
        const connection = await resolveConnection(context.pool, context.secretKey, reference);
        secrets.addConnection(connection);
        return connection;
      },
      (reference) => connectionUrlOf(context.pool, reference),
    );
    for (const value of references.secrets) secrets.add(value);
    resolved = references.spec;
  } catch (error) {
    if (error instanceof ValueReferenceError) throw new Error(error.message);
    throw error;
  }
  const values: Record<string, string> = {};
  for (const item of Array.isArray(resolved.env) ? resolved.env : []) {
    if (typeof item === 'object' && item !== null && typeof (item as { name?: unknown }).name === 'string') {
      const { name, value } = item as { name: string; value?: unknown };
      values[name] = typeof value === 'string' ? value : '';
    }
  }
  if (typeof resolved.url !== 'string' || !resolved.url.includes('{{')) return resolved;
  let url: string;
  try {
    url = placeInUrl(renderGoTemplate(resolved.url, values, { maxSteps: URL_TEMPLATE_STEPS, maxOutput: URL_TEMPLATE_OUTPUT, output: markValue }));
  } catch (error) {
    throw new Error(`url: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { ...resolved, url };
}

async function scrape(entry: SourceEntry, context: SourceContext, secrets: SecretCollector, collector: ItemCollector): Promise<void> {
  const opened = openScraperEntry(context.secretKey, context.scraperId, entry.spec);
  secrets.addOpenedSpec(entry.spec, opened);
  const request = await buildRequest(await withEnvironment(opened, context, secrets), context, secrets);
  const signal = AbortSignal.any([context.signal, AbortSignal.timeout(HTTP_TIMEOUT_MS)]);
  const response = await fetch(request.url, { ...request.init, signal });
  const where = `http[${entry.index}] ${request.url}`;
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel().catch(() => undefined);
    collector.error(where, `HTTP ${response.status}: redirects are not followed (Location: ${response.headers.get('location') ?? 'none'})`);
    return;
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    collector.error(where, `HTTP ${response.status} ${response.statusText}`.trim());
    return;
  }
  const format = formatOf(response);
  const text = await readBody(response);
  if (isRecord(opened.pagination)) {
    await paginate(opened.pagination, request, { response, text, url: request.url }, where, collector, context.signal);
    return;
  }
  const documents = parseDocuments(text, format);
  const origin = { where, source: request.url, format };
  documents.forEach((document, index) => collector.addDocument(document, documents.length === 1 ? origin : { ...origin, where: `${where} document[${index}]` }));
}

interface Page {
  response: Response;
  text: string;
  url: string;
}

/** A page's body as config-db's pagination reads it: JSON when the answer says so (or looks like it), else its text. */
function pageBody(page: Page): unknown {
  const looksJson = /json/i.test(page.response.headers.get('content-type') ?? '') || /^\s*[[{]/.test(page.text);
  if (!looksJson) return page.text;
  try {
    return JSON.parse(page.text) as unknown;
  } catch {
    return page.text;
  }
}

/** config-db's default merge: a page's list, or its value, items or Items list, or the page itself. */
function defaultReduce(acc: unknown[], body: unknown): unknown[] {
  if (Array.isArray(body)) return [...acc, ...body];
  if (isRecord(body)) {
    for (const key of ['value', 'items', 'Items']) {
      const items = body[key];
      if (Array.isArray(items)) return [...acc, ...items];
    }
  }
  return [...acc, body];
}

/** What nextPageExpr asked for next: a URL, or a request {url, method, body, headers}; null to stop. */
function nextRequest(value: unknown, current: string): { url: string; method: string; body?: string; headers: Record<string, string> } | null {
  if (value === null || value === undefined || value === '') return null;
  const spec = isRecord(value) ? value : { url: value };
  const url = typeof spec.url === 'string' ? spec.url : String(spec.url ?? '');
  if (url === '') return null;
  const headers = isRecord(spec.headers) ? Object.fromEntries(Object.entries(spec.headers).map(([name, text]) => [name, String(text)])) : {};
  return {
    url: new URL(url, current).toString(),
    method: typeof spec.method === 'string' && spec.method !== '' ? spec.method.toUpperCase() : 'GET',
    ...(typeof spec.body === 'string' ? { body: spec.body } : {}),
    headers,
  };
}

function waitFor(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * config-db's http pagination: nextPageExpr (CEL over the page's response) names the next page until it returns
 * nothing; pages merge into one list (reduceExpr, or the default merge) or, with perPage, each is a document. Every
 * page must stay on the first page's origin: the request's headers and credentials go there only, so a next link
 * elsewhere stops the run with an error instead of carrying them. At most maxPages (MAX_PAGES when 0).
 */
async function paginate(raw: Record<string, unknown>, first: Request, page: Page, where: string, collector: ItemCollector, outer: AbortSignal): Promise<void> {
  const nextPageExpr = typeof raw.nextPageExpr === 'string' ? raw.nextPageExpr : '';
  const reduceExpr = typeof raw.reduceExpr === 'string' && raw.reduceExpr.trim() !== '' ? raw.reduceExpr : null;
  const perPage = raw.perPage === true;
  const limit = typeof raw.maxPages === 'number' && raw.maxPages > 0 ? Math.min(raw.maxPages, MAX_PAGES) : MAX_PAGES;
  const delayMs = typeof raw.delay === 'string' ? (parseDurationMs(raw.delay) ?? 0) : 0;
  const origin = new URL(first.url).origin;
  let acc: unknown[] = [];
  let current = page;
  for (let count = 1; ; count += 1) {
    const body = pageBody(current);
    if (perPage) collector.addDocument(body, { where: `${where} page ${count}`, source: current.url, format: 'json' });
    else acc = reduceExpr === null ? defaultReduce(acc, body) : reducedList(evaluateCel('reduce', reduceExpr, { acc, page: body }));
    if (count >= limit) {
      if (limit === MAX_PAGES) collector.error(where, `pagination stopped at ${MAX_PAGES} pages, this server's cap`);
      break;
    }
    const headers = Object.fromEntries(current.response.headers.entries());
    const next = nextRequest(evaluateCel('page', nextPageExpr, { response: { body, headers, status: current.response.status, url: current.url } }), current.url);
    if (next === null) break;
    if (new URL(next.url).origin !== origin) {
      collector.error(where, `page ${count + 1}: ${next.url} is not on ${origin}, where the request's credentials go: not fetched`);
      break;
    }
    await waitFor(delayMs, outer);
    if (outer.aborted) break;
    const signal = AbortSignal.any([outer, AbortSignal.timeout(HTTP_TIMEOUT_MS)]);
    const init: RequestInit = { ...first.init, method: next.method, headers: { ...(first.init.headers as Record<string, string>), ...next.headers }, signal };
    if (next.body === undefined) delete init.body;
    else init.body = next.body;
    const response = await fetch(next.url, init);
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      collector.error(where, `page ${count + 1} (${next.url}): HTTP ${response.status} ${response.statusText}`.trim());
      break;
    }
    current = { response, text: await readBody(response), url: next.url };
  }
  if (!perPage) collector.addDocument(acc, { where, source: first.url, format: 'json' });
}

function reducedList(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new Error(`reduceExpr must return a list, not ${value === null ? 'null' : typeof value}`);
  return value;
}

/** Fetches one URL (or a connection's) and turns the JSON or YAML answer into items. */
export const runHttpSource: SourceRunner = secretScrubbingRunner('http', scrape);
