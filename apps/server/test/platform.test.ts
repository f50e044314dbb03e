import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

describe('platform', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers /healthz with ok once the database is reachable', async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('serves an OpenAPI document at /api/openapi.json', async () => {
    const response = await fetch(`${server.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; info: { title: string } };
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info.title).toBe('Opsdeck API');
  });

  it('answers an unknown API path with a coded 404 body', async () => {
    const response = await fetch(`${server.url}/api/does-not-exist`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'OD_ROUTE_NOT_FOUND', message: expect.stringContaining('/api/does-not-exist') });
  });

  it('declares a permission on every registered route', () => {
    const undeclared = server.running.routes.filter((route) => route.permission === undefined);
    expect(undeclared).toEqual([]);
    expect(server.running.routes.length).toBeGreaterThan(2);
  });
});
