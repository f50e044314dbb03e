import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDetailSchema, errorBodySchema, healthSummarySchema } from '@opsdeck/shared';
import { permissionLabel } from '../src/platform/openapi';
import { startTestServer, type TestServer } from './harness';

interface SchemaObject {
  type?: string;
  properties?: Record<string, unknown>;
  required?: string[];
}

interface Operation {
  'x-permission'?: unknown;
  parameters?: Array<{ in: string; name: string; schema?: unknown }>;
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  security?: Array<Record<string, string[]>>;
  responses: Record<string, { content?: Record<string, { schema?: SchemaObject }> }>;
}

interface OpenApiDocument {
  paths: Paths;
  components?: { securitySchemes?: Record<string, { type?: string; scheme?: string; in?: string; name?: string }> };
}

type Paths = Record<string, Record<string, Operation>>;

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/**
 * Writes that take no body at all (the path names what they act on); every other POST, PUT and PATCH under /api/
 * declares the schema of its body. A route added here must really ignore its body.
 */
const BODYLESS_WRITES: string[] = [
  'POST /api/canary/run/check/{id}',
  'POST /api/canary/connection/test/{id}',
  'POST /api/agents/{id}/token',
  'POST /api/config/scrapers/{id}/run',
  'POST /api/canary/run/topology/{id}',
  'POST /api/playbook/run/{id}/cancel',
  'POST /api/playbook/run/approve/{playbook_id}/{run_id}',
  'POST /api/kubeconfig',
  'POST /api/notifications/{id}/test',
];

/** Routes kept only to refuse old callers with a hint (GET of what is now minted by POST): no success answer. */
const REFUSAL_ONLY: string[] = ['GET /api/kubeconfig', 'GET /api/playbook/webhook/{path}'];

/** Fastify's `/api/x/:id` as OpenAPI writes it, `/api/x/{id}`. */
function openApiPath(url: string): string {
  return url.replace(/:(\w+)/g, '{$1}');
}

function operations(paths: Paths): Array<{ name: string; operation: Operation }> {
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
  );
}

describe('the OpenAPI document', () => {
  let server: TestServer;
  let document: OpenApiDocument;
  let paths: Paths;

  beforeAll(async () => {
    server = await startTestServer();
    const response = await fetch(`${server.url}/api/openapi.json`);
    document = (await response.json()) as OpenApiDocument;
    paths = document.paths;
  });
  afterAll(async () => {
    await server.close();
  });

  it('lists every route outside the data API', () => {
    const documented = new Set(operations(paths).map(({ name }) => name));
    const missing = server.running.routes
      .filter((route) => !route.url.startsWith('/api/db/') && route.method !== 'HEAD' && route.method !== 'OPTIONS')
      .map((route) => `${route.method} ${openApiPath(route.url)}`)
      .filter((name) => !documented.has(name));
    expect(missing).toEqual([]);
  });

  /** Every registered route under /api/ but the data API's generic ones, with its operation in the document. */
  function apiOperations(): Array<{ name: string; method: string; url: string; operation: Operation | undefined }> {
    return server.running.routes
      .filter((route) => route.url.startsWith('/api/') && !route.url.startsWith('/api/db/') && route.method !== 'HEAD' && route.method !== 'OPTIONS')
      .map((route) => {
        const path = openApiPath(route.url);
        return { name: `${route.method} ${path}`, method: route.method, url: route.url, operation: paths[path]?.[route.method.toLowerCase()] };
      });
  }

  it('declares the bearer scheme for API tokens beside the session cookie', () => {
    expect(document.components?.securitySchemes?.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components?.securitySchemes?.session).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'opsdeck_session' });
  });

  it('lets every guarded /api operation be called with a bearer token, and says public ones need nothing', () => {
    const wrong = apiOperations()
      .filter(({ operation }) => {
        if (operation === undefined) return true;
        const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
        return operation['x-permission'] === 'public' ? operation.security?.length !== 0 : !schemes.includes('bearer');
      })
      .map(({ name, operation }) => `${name}: ${JSON.stringify(operation?.security)}`);
    expect(wrong).toEqual([]);
  });

  it('declares a schema for every path parameter of every /api operation', () => {
    const lacking = apiOperations()
      .filter(({ url, operation }) => {
        const names = [...url.matchAll(/:(\w+)/g)].map((match) => match[1]);
        const declared = new Set((operation?.parameters ?? []).filter((parameter) => parameter.in === 'path' && parameter.schema !== undefined).map((parameter) => parameter.name));
        return names.some((name) => name === undefined || !declared.has(name));
      })
      .map(({ name }) => name);
    expect(lacking).toEqual([]);
  });

  it('declares the request body schema of every /api operation that takes one', () => {
    const lacking = apiOperations()
      .filter(({ method }) => method === 'POST' || method === 'PUT' || method === 'PATCH')
      .filter(({ operation }) => !Object.values(operation?.requestBody?.content ?? {}).some((media) => media.schema !== undefined))
      .map(({ name }) => name);
    expect(lacking.sort()).toEqual([...BODYLESS_WRITES].sort());
  });

  it('declares a success answer with its body schema for every operation', () => {
    const lacking = operations(paths)
      .filter(({ name }) => !REFUSAL_ONLY.includes(name))
      .filter(({ operation }) => {
        const success = Object.entries(operation.responses).filter(([status]) => /^2\d\d$/.test(status));
        return !success.some(([status, response]) => status === '204' || Object.values(response.content ?? {}).some((media) => media.schema !== undefined));
      })
      .map(({ name }) => name);
    expect(lacking).toEqual([]);
  });

  it('names the permission of every operation, public ones included, as the route declares it', () => {
    const declared = new Map(server.running.routes.map((route) => [`${route.method} ${openApiPath(route.url)}`, permissionLabel(route.permission)]));
    const wrong = operations(paths)
      .filter(({ name, operation }) => typeof operation['x-permission'] !== 'string' || operation['x-permission'] !== declared.get(name))
      .map(({ name, operation }) => `${name}: ${String(operation['x-permission'])}`);
    expect(wrong).toEqual([]);
    expect(paths['/api/canary/api/summary']?.get?.['x-permission']).toBe('canaries:read');
    expect(paths['/healthz']?.get?.['x-permission']).toBe('public');
  });

  it('documents the error body of a refused session for every guarded operation', () => {
    // The shared {code, message, details, hint}, or Kratos's {error} envelope on the /api/auth routes that mimic Kratos.
    const errorFields = Object.keys(errorBodySchema.shape).sort().join();
    const lacking = operations(paths)
      .filter(({ operation }) => operation['x-permission'] !== 'public')
      .filter(({ operation }) => {
        const schema = operation.responses['401']?.content?.['application/json']?.schema;
        const isErrorBody = Object.keys(schema?.properties ?? {}).sort().join() === errorFields;
        return !isErrorBody && schema?.required?.includes('error') !== true;
      })
      .map(({ name }) => name);
    expect(lacking).toEqual([]);
    expect(Object.keys(paths['/api/canary/canaries/{id}']?.get?.responses ?? {}).sort()).toEqual(['200', '400', '401', '403', '404']);
  });
});

describe('the canary spec JSON Schema', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('is served to a signed-in reader of canaries and may be cached by their browser', async () => {
    const response = await fetch(`${server.url}/api/schemas/canary.schema.json`, { headers: { cookie: await server.cookieFor('viewer') } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, max-age=3600');
    const schema = (await response.json()) as { $schema: string; properties: Record<string, { type?: string }> };
    expect(schema.$schema).toContain('2020-12');
    expect(schema.properties.http?.type).toBe('array');
    expect(schema.properties.schedule?.type).toBe('string');
  });

  it('is refused without a session, and the refusal is not cached', async () => {
    const response = await fetch(`${server.url}/api/schemas/canary.schema.json`);
    expect(response.status).toBe(401);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});

describe('the health answers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('match the shared schemas the web reads them with', async () => {
    const cookie = await server.cookieFor('viewer');
    const summary = await server.call('GET', '/api/canary/api/summary?timeRange=1d', cookie);
    expect(summary.status).toBe(200);
    const parsed = healthSummarySchema.parse(summary.json);
    const first = parsed.checks_summary[0];
    expect(first).toBeDefined();
    const detail = await server.call('GET', `/api/canary/api/details?check=${first?.id ?? ''}&start=1d`, cookie);
    expect(detail.status).toBe(200);
    expect(checkDetailSchema.parse(detail.json).check.id).toBe(first?.id);
  });
});
