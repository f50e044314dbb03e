import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fuzzRuns } from './fuzz-seed';
import type { RouteRecord } from '../src/platform/http';
import { fromDataException } from '../src/platform/errors';
import { startTestServer, type TestServer } from './harness';

/**
 * The brief's rule for every route: bad input gets a coded 4xx, never a 5xx. The data API has its own, deeper fuzz
 * (data-api-fuzz.test.ts); this one walks every other API route with malformed path parameters, query strings and
 * bodies, as an admin so that the requests get past the permission guard into the handlers.
 */

/** Logging out would end the admin session the rest of the run uses; the routes take no input anyway. */
const SKIPPED = new Set(['GET /api/auth/self-service/logout/browser', 'GET /api/auth/self-service/logout']);

const QUERY_KEYS = [
  'id', 'check', 'canary_id', 'agent_id', 'type', 'timeRange', 'start', 'end', 'status', 'duration', 'pageIndex', 'pageSize',
  'groupBy', 'tabBy', 'tab', 'sortBy', 'sortDesc', 'labels', 'query', 'hidePassing', 'includeDeleted', 'return_to', 'flow',
  'limit', 'offset', 'since', 'format',
];
const BODY_KEYS = [
  'id', 'name', 'namespace', 'type', 'url', 'username', 'password', 'spec', 'labels', 'schedule', 'properties', 'description',
  'identifier', 'method', 'csrf_token', 'incident_id', 'evidences', 'definition_of_done', 'search', 'resources', 'filter',
  'limit', 'settings', 'token', 'insecure_tls', 'host', 'port', 'database', 'email', 'traits',
];
const WEIRD = [
  '', ' ', '0', '-1', '1e999', 'NaN', 'null', 'true', '[]', '{}', '%', '%zz', '..', '../../etc/passwd', '\u0000', 'ö', "'; drop table people; --",
  '00000000-0000-0000-0000-000000000000', 'not-a-uuid', '2024-13-45', '@every 0s', 'x'.repeat(5000), '-1h', '999999999999d', 'a,b,,c', 'key=value,=,=x',
];

const weird = fc.oneof(fc.constantFrom(...WEIRD), fc.string({ maxLength: 12 }), fc.integer().map(String));
const pathValue = fc.oneof(weird, fc.uuid());
const queryString = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ maxLength: 6 })), weird), { maxLength: 5 })
  .map((pairs) => new URLSearchParams(pairs).toString());
const loose = fc.oneof(fc.jsonValue({ maxDepth: 2 }), weird);
const body = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom('{', '{"name":', '[1,', 'null', '"text"', '1', 'not json'),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
  fc.dictionary(fc.constantFrom(...BODY_KEYS), loose, { maxKeys: 6 }).map((value) => JSON.stringify(value)),
  fc
    .record({ name: loose, type: fc.oneof(fc.constantFrom('postgres', 'http', 'redis', 'smtp', 'slack', 'nope'), loose), spec: fc.oneof(loose, fc.dictionary(fc.constantFrom('http', 'tcp', 'schedule', 'nope'), loose)) }, { requiredKeys: [] })
    .map((value) => JSON.stringify(value)),
);

/**
 * Our error body; the identity routes answer with Ory Kratos's shapes instead (spec 002: the web app reads
 * error.id, and a rejected login is the flow again with its ui messages).
 */
function describesError(route: RouteRecord, body: Record<string, unknown>): boolean {
  if (typeof body.code === 'string' && typeof body.message === 'string') return true;
  if (!route.url.startsWith('/api/auth/')) return false;
  const kratos = body.error as { code?: unknown; message?: unknown } | undefined;
  if (typeof kratos?.code === 'number' && typeof kratos.message === 'string') return true;
  const ui = body.ui as { messages?: unknown; nodes?: unknown } | undefined;
  return Array.isArray(ui?.nodes);
}

function fill(url: string, value: string): string {
  return url.replace(/:[A-Za-z_]+/g, () => encodeURIComponent(value));
}

function fuzzedRoutes(routes: readonly RouteRecord[]): RouteRecord[] {
  return routes.filter(
    (route) =>
      route.url.startsWith('/api/') &&
      !route.url.startsWith('/api/db/') &&
      !route.url.includes('*') &&
      route.method !== 'HEAD' &&
      route.method !== 'OPTIONS' &&
      !SKIPPED.has(`${route.method} ${route.url}`),
  );
}

describe('every API route outside the data API under malformed input', () => {
  let server: TestServer;
  let cookie: string;
  let knownIds: string[];
  beforeAll(async () => {
    server = await startTestServer();
    cookie = await server.cookieFor('admin');
    const ids = await server.pool.query<{ id: string }>(
      `(select id::text from canaries limit 2) union all (select id::text from checks limit 2)
       union all (select id::text from connections limit 2) union all (select id::text from incidents limit 2)`,
    );
    knownIds = ids.rows.map((row) => row.id);
  });
  afterAll(async () => {
    await server.close();
  });

  it('walks the routes it is meant to, the health, connection, agent and incident ones among them', () => {
    const urls = fuzzedRoutes(server.running.routes).map((route) => `${route.method} ${route.url}`);
    expect(urls).toEqual(
      expect.arrayContaining(['GET /api/canary/api/summary', 'PATCH /api/canary/canaries/:id', 'POST /api/canary/connection/test', 'PATCH /api/agents/:id', 'GET /api/incidents/:id/postmortem', 'POST /api/auth/self-service/login']),
    );
  });

  it('answers a NUL byte, a lone percent sign, a long text or a path in a path parameter with a coded 4xx on every route that takes one', async () => {
    const wrong: string[] = [];
    for (const route of fuzzedRoutes(server.running.routes).filter((candidate) => candidate.url.includes(':'))) {
      for (const value of ['\u0000', '%', 'x'.repeat(300), '../../etc/passwd', 'INC-\u0000']) {
        const response = await server.running.app.inject({ method: route.method as 'GET', url: fill(route.url, value), headers: { cookie, accept: 'application/json' } });
        const coded = response.statusCode >= 400 && response.statusCode < 500 && describesError(route, JSON.parse(response.body) as Record<string, unknown>);
        if (!coded) wrong.push(`${route.method} ${route.url} with ${JSON.stringify(value)} answered ${response.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('answers every malformed request with a 2xx or a coded 4xx, never a 5xx', async () => {
    const routes = fuzzedRoutes(server.running.routes);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.oneof(pathValue, fc.constantFrom(...knownIds)),
        queryString,
        body,
        fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded'),
        async (route, id, query, payload, contentType) => {
          const response = await server.running.app.inject({
            method: route.method as 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
            url: `${fill(route.url, id)}${query === '' ? '' : `?${query}`}`,
            // With the web client's CSRF header, so text and form bodies reach the parsers and handlers under test.
            headers: { cookie, accept: 'application/json', 'x-requested-with': 'XMLHttpRequest', ...(payload === undefined ? {} : { 'content-type': contentType }) },
            ...(payload === undefined || route.method === 'GET' ? {} : { payload }),
          });
          expect(response.statusCode, `${route.method} ${route.url} answered ${response.statusCode}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
          if (response.statusCode >= 400) expect(describesError(route, JSON.parse(response.body) as Record<string, unknown>)).toBe(true);
        },
      ),
      fuzzRuns(2500),
    );
  }, 180_000);

  it('answers JSON bodies nested far past the limit, whole or inside an object, with a coded 4xx on every route that takes a body', async () => {
    const deep = `${'['.repeat(5000)}0${']'.repeat(5000)}`;
    const wrong: string[] = [];
    for (const route of fuzzedRoutes(server.running.routes).filter((candidate) => ['POST', 'PATCH', 'PUT'].includes(candidate.method))) {
      for (const payload of [deep, `{"name":"deep","spec":{"http":[${deep}]},"settings":${deep},"traits":${deep}}`]) {
        const response = await server.running.app.inject({
          method: route.method as 'POST' | 'PATCH' | 'PUT',
          url: fill(route.url, knownIds[0] ?? 'x'),
          headers: { cookie, accept: 'application/json', 'content-type': 'application/json' },
          payload,
        });
        const coded = response.statusCode >= 400 && response.statusCode < 500 && describesError(route, JSON.parse(response.body) as Record<string, unknown>);
        if (!coded) wrong.push(`${route.method} ${route.url} answered ${response.statusCode}: ${response.body.slice(0, 200)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('turns a value the database rejects into a coded 400 that quotes the value and not the statement', async () => {
    for (const [sql, value] of [
      ['select $1::uuid', 'not-a-uuid'],
      ['select $1::text', 'nul\u0000byte'],
      ['select $1::integer', '99999999999999'],
    ] as const) {
      const rejection = await server.pool.query(sql, [value]).then(
        () => null,
        (error: unknown) => error,
      );
      const mapped = fromDataException(rejection);
      expect(mapped?.toBody()).toMatchObject({ code: 'OD_INVALID_VALUE', message: 'A value in the request is not valid' });
      expect(mapped?.statusCode).toBe(400);
      expect(mapped?.details).not.toContain('select');
    }
    expect(fromDataException(new Error('boom'))).toBeNull();
    expect(fromDataException({ code: '23505', message: 'duplicate key', severity: 'ERROR' })).toBeNull();
  });
});
