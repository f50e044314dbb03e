import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

describe('feature flag source', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('gives every seeded demo flag the source UI', async () => {
    const { rows } = await server.pool.query<{ name: string; source: string | null }>(`select name, source from properties where source is distinct from 'local'`);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((row) => row.source !== 'UI')).toEqual([]);
  });

  it('records a flag created through the data API without a source as created in the UI', async () => {
    const cookie = await server.cookieFor('admin');
    const created = await server.call('POST', '/api/db/properties', cookie, { name: 'catalog.demo.disable', value: 'false' }, { prefer: 'return=representation' });
    expect(created.status).toBe(201);
    const read = await server.call('GET', '/api/db/properties?name=eq.catalog.demo.disable&select=name,source', cookie);
    expect(read.json).toEqual([{ name: 'catalog.demo.disable', source: 'UI' }]);
  });

  it('refuses a flag name longer than 255 characters with a 400 instead of a database failure', async () => {
    const cookie = await server.cookieFor('admin');
    const tooLong = await server.call('POST', '/api/db/properties', cookie, { name: `${'n'.repeat(250)}.disable`, value: 'true' });
    expect(tooLong.status).toBe(400);
    const longest = await server.call('POST', '/api/db/properties', cookie, { name: `${'n'.repeat(247)}.disable`, value: 'true' });
    expect(longest.status).toBe(201);
  });
});
