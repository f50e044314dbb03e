import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { LogsResponse } from '@opsdeck/shared';
import { DEMO_LOG_BACKEND_NAME, DEMO_LOG_SERVICES, writeDemoLogs } from '../src/modules/logs';
import { startTestServer, type TestServer } from './harness';

interface ItemRow {
  id: string;
  name: string;
  type: string;
  tags: Record<string, string>;
  log_selectors?: unknown;
}

describe('config_items_with_logs', () => {
  let server: TestServer;
  let viewer: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer();
    viewer = await server.cookieFor('viewer');
    writeDemoLogs(path.join(inject('testRoot'), 'logs'));
    const insert = async (name: string, type: string, tags: Record<string, string>, labels: Record<string, string> = {}, deleted = false): Promise<void> => {
      const result = await server.pool.query<{ id: string }>(
        'insert into config_items (type, config_class, name, tags, labels, deleted_at) values ($1, $2, $3, $4, $5, $6) returning id',
        [type, type.split('::')[0], name, JSON.stringify(tags), JSON.stringify(labels), deleted ? new Date() : null],
      );
      ids[name] = result.rows[0]?.id ?? '';
    };
    await insert('cil-api', 'CilApp::Pod', { cluster: 'east', namespace: 'cil' });
    await insert('cil-by-label', 'CilOther', {}, { team: 'cil' });
    await insert('cil-by-tag', 'CilOther', { team: 'cil' }, { team: 'other' });
    await insert('cil-component-only', 'CilService', {});
    await insert('cil-none', 'CilNone', {});
    await insert('cil-gone', 'CilApp::Pod', { namespace: 'cil' }, {}, true);
    const backend = async (name: string, routes: unknown[], deleted = false): Promise<void> => {
      await server.pool.query('insert into logging_backends (name, spec, deleted_at) values ($1, $2, $3)', [
        name,
        JSON.stringify({ routes, loki: { url: 'http://127.0.0.1:3100' } }),
        deleted ? new Date() : null,
      ]);
    };
    await backend('cil-pods', [{ kind: 'config', type: 'CilApp::*', labels: { namespace: 'cil' } }]);
    await backend('cil-team', [{ labels: { team: 'cil' } }]);
    await backend('cil-components', [{ kind: 'component', type: 'CilService' }]);
    await backend('cil-deleted', [{ kind: 'config', type: 'CilNone' }], true);
  });
  afterAll(async () => {
    await server.close();
  });

  const listed = async (): Promise<string[]> => {
    const result = await server.pool.query<{ name: string }>(`select name from config_items_with_logs where name like 'cil-%' order by name`);
    return result.rows.map((row) => row.name);
  };

  it('lists the live items a config route or a kindless route matches, by type glob, labels or tags', async () => {
    expect(await listed()).toEqual(['cil-api', 'cil-by-label', 'cil-by-tag']);
  });

  it('leaves out items only a component route, a deleted backend or nothing matches, and deleted items', async () => {
    const names = await listed();
    expect(names).not.toContain('cil-component-only');
    expect(names).not.toContain('cil-none');
    expect(names).not.toContain('cil-gone');
  });

  it('counts tags over labels, as the logs call does', async () => {
    // cil-by-tag is labelled team=other but tagged team=cil: the tag wins and the route matches.
    const result = await server.pool.query<{ log_selectors: unknown }>('select log_selectors from config_items_with_logs where id = $1', [ids['cil-by-tag']]);
    expect(result.rows[0]?.log_selectors).toEqual([{ name: 'cil-team', type: 'loki', labels: { team: 'cil' } }]);
  });

  it('gives each item the selectors config_log_selectors gives the logs call', async () => {
    const result = await server.pool.query<{ listed: unknown; called: unknown }>(
      'select v.log_selectors as listed, config_log_selectors(v.id) as called from config_items_with_logs v where v.id = $1',
      [ids['cil-api']],
    );
    expect(result.rows[0]?.listed).toEqual([{ name: 'cil-pods', type: 'loki', labels: { namespace: 'cil' } }]);
    expect(result.rows[0]?.listed).toEqual(result.rows[0]?.called);
  });

  it('answers a viewer through the data API with a page of items searched by name, and one item by id', async () => {
    const page = await server.call('GET', '/api/db/config_items_with_logs?select=id,name,type,tags&name=ilike.*cil-b*&order=name.asc&limit=50', viewer);
    expect(page.status, page.text).toBe(200);
    const rows = page.json as unknown as ItemRow[];
    expect(rows.map((row) => row.name)).toEqual(['cil-by-label', 'cil-by-tag']);
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual(['id', 'name', 'tags', 'type']);

    const one = await server.call('GET', `/api/db/config_items_with_logs?select=id,name,type,tags,log_selectors&id=eq.${ids['cil-api'] ?? ''}`, viewer);
    expect(one.status, one.text).toBe(200);
    expect(one.json).toEqual([
      { id: ids['cil-api'], name: 'cil-api', type: 'CilApp::Pod', tags: { cluster: 'east', namespace: 'cil' }, log_selectors: [{ name: 'cil-pods', type: 'loki', labels: { namespace: 'cil' } }] },
    ]);
    const none = await server.call('GET', `/api/db/config_items_with_logs?select=id&id=eq.${ids['cil-none'] ?? ''}`, viewer);
    expect(none.json).toEqual([]);
  });

  it('offers the demo deployments of the shop and payments namespaces, told apart by their cluster tag', async () => {
    const result = await server.pool.query<ItemRow>(
      `select id, name, type, tags from config_items_with_logs where type = 'Kubernetes::Deployment' and name = 'checkout' order by tags ->> 'cluster'`,
    );
    expect(result.rows.length).toBeGreaterThan(0);
    expect(result.rows.every((row) => row.tags.namespace === 'shop')).toBe(true);
    expect(new Set(result.rows.map((row) => row.tags.cluster)).size).toBe(result.rows.length);
    const selectors = await server.pool.query<{ log_selectors: Array<{ name: string }> }>('select log_selectors from config_items_with_logs where id = $1', [result.rows[0]?.id]);
    expect(selectors.rows[0]?.log_selectors.map((selector) => selector.name)).toContain(DEMO_LOG_BACKEND_NAME);
  });

  it('offers logs only for the demo deployments whose service writes a file, so View logs never opens an empty page', async () => {
    const result = await server.pool.query<{ name: string }>(`select distinct name from config_items_with_logs where type = 'Kubernetes::Deployment' order by name`);
    expect(result.rows.map((row) => row.name)).toEqual([...DEMO_LOG_SERVICES.map((service) => service.app)].sort());
  });

  it('serves the lines of a demo deployment through GET /api/logs by its item id', async () => {
    const item = await server.pool.query<{ id: string }>(`select id from config_items_with_logs where type = 'Kubernetes::Deployment' and name = 'checkout' limit 1`);
    const reply = await server.call('GET', `/api/logs?id=${item.rows[0]?.id ?? ''}&start=1h`, viewer);
    expect(reply.status, reply.text).toBe(200);
    const body = reply.json as unknown as LogsResponse;
    expect(body.backend.name).toBe(DEMO_LOG_BACKEND_NAME);
    expect(body.lines.length).toBeGreaterThan(0);
    expect(body.lines[0]?.labels).toMatchObject({ file: 'demo/checkout.log' });
  });
});
