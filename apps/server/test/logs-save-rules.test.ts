import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createConnection } from '../src/modules/connections/connection-store';
import { startTestServer, type TestServer } from './harness';
import { TEST_SECRET_KEY } from './global-setup';

const REPRESENTATION = { prefer: 'return=representation' };

describe('log backend save rules and selectors', () => {
  let server: TestServer;
  let editor: string;
  let viewer: string;
  let admin: string;
  let folder: string;
  let relative: string;
  const root = path.join(inject('testRoot'), 'logs');

  const save = (cookie: string, body: Record<string, unknown>) => server.call('POST', '/api/db/logging_backends', cookie, body, REPRESENTATION);

  beforeAll(async () => {
    server = await startTestServer();
    [editor, viewer, admin] = await Promise.all([server.cookieFor('editor'), server.cookieFor('viewer'), server.cookieFor('admin')]);
    mkdirSync(root, { recursive: true });
    folder = mkdtempSync(path.join(root, 'rules-'));
    relative = path.basename(folder);
    writeFileSync(path.join(folder, 'app.log'), '2026-01-01 10:00:00 INFO started\n');
    symlinkSync('/etc', path.join(folder, 'etc-link'));
    symlinkSync('/etc/passwd', path.join(folder, 'passwd.log'));
    await createConnection(server.pool, TEST_SECRET_KEY, { name: 'rules-loki', type: 'http', url: 'http://127.0.0.1:3100', username: 'loki', password: 'loki-secret' }, null);
  });
  afterAll(async () => {
    await server.close();
  });

  it('saves a file backend inside the log roots with the writer as creator and UI as source', async () => {
    const reply = await save(editor, {
      name: 'rules-file',
      spec: { routes: [{ kind: 'component', type: 'RulesApp' }], file: { paths: [`${relative}/*.log`, path.join(folder, 'app.log')] } },
      created_by: '00000000-0000-4000-8000-000000000000',
      source: 'CRD',
    });
    expect(reply.status).toBe(201);
    const [row] = reply.json as unknown as Array<Record<string, unknown>>;
    const editorId = await server.pool.query<{ id: string }>(`select id from people where email = 'editor@opsdeck.local'`);
    expect(row?.created_by).toBe(editorId.rows[0]?.id);
    expect(row?.source).toBe('UI');
  });

  it('accepts the spec as YAML text and stores the object it parses to', async () => {
    const reply = await save(editor, { name: 'rules-yaml', spec: `routes:\n  - type: RulesYaml\nfile:\n  paths: ['${relative}/app.log']\n` });
    expect(reply.status).toBe(201);
    const [row] = reply.json as unknown as Array<{ spec: Record<string, unknown> }>;
    expect(row?.spec.file).toEqual({ paths: [`${relative}/app.log`] });
  });

  it('refuses a backend without a name', async () => {
    const reply = await save(editor, { spec: { file: { paths: [`${relative}/app.log`] } } });
    expect(reply.status).toBe(400);
    expect(reply.json.code).toBe('OD_LOG_BACKEND_SPEC');
    expect(reply.json.details).toBe('name');
  });

  it('refuses a spec that names two backend kinds, naming the field and giving a hint', async () => {
    const reply = await save(editor, { name: 'rules-two', spec: { file: { paths: ['a.log'] }, loki: { url: 'http://127.0.0.1:3100' } } });
    expect(reply.status).toBe(400);
    expect(reply.json.code).toBe('OD_LOG_BACKEND_SPEC');
    expect(reply.json.details).toBe('spec');
    expect(String(reply.json.hint)).toContain('exactly one of file, loki');
  });

  it('refuses a spec field of the wrong shape with its path in details', async () => {
    const reply = await save(editor, { name: 'rules-shape', spec: { file: { paths: [`${relative}/app.log`, 7] } } });
    expect(reply.status).toBe(400);
    expect(reply.json.code).toBe('OD_LOG_BACKEND_SPEC');
    expect(reply.json.details).toBe('spec.file.paths[1]');
  });

  it('refuses a template that does not parse', async () => {
    const reply = await save(editor, { name: 'rules-template', spec: { loki: { url: 'http://127.0.0.1:3100', query: '{app="{{ labels.app "}' } } });
    expect(reply.status).toBe(400);
    expect(reply.json.code).toBe('OD_LOG_BACKEND_SPEC');
    expect(reply.json.details).toBe('spec.loki.query');
  });

  it('refuses an editor pointing a file backend at /etc/passwd', async () => {
    const reply = await save(editor, { name: 'rules-passwd', spec: { file: { paths: ['/etc/passwd'] } } });
    expect(reply.status).toBe(400);
    expect(reply.json.code).toBe('OD_LOG_BACKEND_PATH');
    expect(reply.json.details).toBe('spec.file.paths[0]');
  });

  it('refuses a path that climbs out of the roots with ..', async () => {
    for (const pattern of ['../../etc/passwd', `${root}/../../etc/passwd`, `${relative}/../../../etc/passwd`, `${relative}/*/../../../../etc/passwd`]) {
      const reply = await save(editor, { name: 'rules-climb', spec: { file: { paths: [pattern] } } });
      expect(reply.status, pattern).toBe(400);
      expect(reply.json.code, pattern).toBe('OD_LOG_BACKEND_PATH');
    }
  });

  it('refuses a path that leaves the roots through a symlinked folder or file', async () => {
    for (const pattern of [`${relative}/etc-link/passwd`, `${relative}/etc-link/*.conf`, `${relative}/passwd.log`]) {
      const reply = await save(editor, { name: 'rules-symlink', spec: { file: { paths: [pattern] } } });
      expect(reply.status, pattern).toBe(400);
      expect(reply.json.code, pattern).toBe('OD_LOG_BACKEND_PATH');
    }
  });

  it('refuses the same paths on a filtered PATCH', async () => {
    const created = await save(editor, { name: 'rules-patch', spec: { file: { paths: [`${relative}/app.log`] } } });
    const [row] = created.json as unknown as Array<{ id: string }>;
    const reply = await server.call('PATCH', `/api/db/logging_backends?id=eq.${row?.id ?? ''}`, editor, { spec: { file: { paths: ['/etc/shadow'] } } });
    expect(reply.status).toBe(400);
    expect(reply.json.code).toBe('OD_LOG_BACKEND_PATH');
  });

  it('ignores created_by, created_at and updated_at in a PATCH body', async () => {
    const created = await save(editor, { name: 'rules-stamps', spec: { file: { paths: [`${relative}/app.log`] } } });
    const [row] = created.json as unknown as Array<{ id: string; created_by: string; created_at: string }>;
    const reply = await server.call(
      'PATCH',
      `/api/db/logging_backends?id=eq.${row?.id ?? ''}`,
      admin,
      { name: 'rules-stamps-2', created_by: null, created_at: '2001-01-01T00:00:00Z', updated_at: '2001-01-01T00:00:00Z' },
      REPRESENTATION,
    );
    expect(reply.status).toBe(200);
    const [updated] = reply.json as unknown as Array<{ name: string; created_by: string; created_at: string; updated_at: string }>;
    expect(updated?.name).toBe('rules-stamps-2');
    expect(updated?.created_by).toBe(row?.created_by);
    expect(updated?.created_at).toBe(row?.created_at);
    expect(updated?.updated_at.startsWith('2001')).toBe(false);
  });

  it('refuses a connection that does not exist', async () => {
    const reply = await save(editor, { name: 'rules-conn', spec: { loki: { url: 'http://127.0.0.1:3100', connection: 'connection://default/nope' } } });
    expect(reply.status).toBe(400);
    expect(reply.json.code).toBe('OD_LOG_BACKEND_CONNECTION');
  });

  it('refuses a loki url on another origin than its connection', async () => {
    const reply = await save(editor, { name: 'rules-origin', spec: { loki: { url: 'http://127.0.0.1:4444', connection: 'connection://default/rules-loki' } } });
    expect(reply.status).toBe(400);
    expect(reply.json.code).toBe('OD_LOG_BACKEND_CONNECTION');
    expect(reply.json.details).toBe('spec.loki.url');
    expect(reply.text).not.toContain('loki-secret');
  });

  it('refuses credentials written into a backend url', async () => {
    const reply = await save(editor, { name: 'rules-userinfo', spec: { opensearch: { url: 'http://user:pw@127.0.0.1:9200', index: 'logs' } } });
    expect(reply.status).toBe(400);
    expect(reply.json.code).toBe('OD_LOG_BACKEND_SPEC');
    expect(reply.json.details).toBe('spec.opensearch.url');
  });

  it('lets a viewer read backends but not write them', async () => {
    expect((await server.call('GET', '/api/db/logging_backends?select=name&limit=1', viewer)).status).toBe(200);
    const reply = await save(viewer, { name: 'rules-viewer', spec: { file: { paths: [`${relative}/app.log`] } } });
    expect(reply.status).toBe(403);
  });

  it('serves the spec JSON Schema to readers', async () => {
    const reply = await server.call('GET', '/api/logs/schema', viewer);
    expect(reply.status).toBe(200);
    expect(Object.keys((reply.json.properties ?? {}) as Record<string, unknown>)).toEqual(
      expect.arrayContaining(['routes', 'file', 'loki', 'opensearch', 'elasticsearch', 'kubernetes']),
    );
  });

  describe('components_with_logs', () => {
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      const insert = async (name: string, type: string, labels: Record<string, string>, own: unknown = null): Promise<void> => {
        const result = await server.pool.query<{ id: string }>(
          'insert into components (name, type, labels, log_selectors) values ($1, $2, $3, $4) returning id',
          [name, type, JSON.stringify(labels), own === null ? null : JSON.stringify(own)],
        );
        ids[name] = result.rows[0]?.id ?? '';
      };
      await insert('sel-api', 'SelApp::Api', { team: 'core', tier: 'web' });
      await insert('sel-worker', 'SelApp::Worker', { team: 'core' });
      await insert('sel_other', 'SelOther', { team: 'edge' });
      await insert('sel-own', 'SelOwn', {}, [{ name: 'own-selector', type: 'loki', labels: { app: 'own' } }]);
      await insert('sel-none', 'SelNone', {});
      const backend = async (name: string, routes: unknown[], deleted = false): Promise<void> => {
        await server.pool.query('insert into logging_backends (name, spec, deleted_at) values ($1, $2, $3)', [
          name,
          JSON.stringify({ routes, loki: { url: 'http://127.0.0.1:3100' } }),
          deleted ? new Date() : null,
        ]);
      };
      await backend('sel-by-type', [{ kind: 'component', type: 'SelApp::*', labels: { team: 'core' } }]);
      await backend('sel-by-labels', [{ labels: { tier: 'web' } }]);
      await backend('sel-by-name', [{ name: 'sel_*' }]);
      await backend('sel-configs-only', [{ kind: 'config', type: 'SelApp::*' }]);
      await backend('sel-deleted', [{ type: 'SelNone' }], true);
    });

    const selectorsOf = async (name: string): Promise<unknown> => {
      const result = await server.pool.query<{ log_selectors: unknown }>('select log_selectors from components_with_logs where id = $1', [ids[name]]);
      return result.rows[0]?.log_selectors;
    };

    it('lists a component a backend route matches by type glob and labels, with the route labels', async () => {
      expect(await selectorsOf('sel-api')).toEqual([
        { name: 'sel-by-labels', type: 'loki', labels: { tier: 'web' } },
        { name: 'sel-by-type', type: 'loki', labels: { team: 'core' } },
      ]);
      expect(await selectorsOf('sel-worker')).toEqual([{ name: 'sel-by-type', type: 'loki', labels: { team: 'core' } }]);
    });

    it('matches a name glob literally apart from its stars', async () => {
      expect(await selectorsOf('sel_other')).toEqual([{ name: 'sel-by-name', type: 'loki', labels: {} }]);
    });

    it('keeps a component own selectors and leaves out components nothing matches or only deleted backends match', async () => {
      expect(await selectorsOf('sel-own')).toEqual([{ name: 'own-selector', type: 'loki', labels: { app: 'own' } }]);
      expect(await selectorsOf('sel-none')).toBeUndefined();
    });

    it('answers the same rows through the data API with its original columns', async () => {
      const reply = await server.call('GET', `/api/db/components_with_logs?id=eq.${ids['sel-worker'] ?? ''}`, viewer);
      expect(reply.status).toBe(200);
      const [row] = reply.json as unknown as Array<Record<string, unknown>>;
      expect(Object.keys(row ?? {}).sort()).toEqual(['agent_id', 'icon', 'id', 'log_selectors', 'name', 'text', 'topology_id', 'type']);
    });

    it('gives a configuration item the backends whose config routes match its tags and labels', async () => {
      const item = await server.pool.query<{ id: string }>(
        `insert into config_items (type, config_class, name, tags, labels) values ('SelApp::Pod', 'SelApp', 'sel-pod', '{"team": "core"}', '{"tier": "web"}') returning id`,
      );
      const result = await server.pool.query<{ selectors: unknown }>('select config_log_selectors($1) as selectors', [item.rows[0]?.id]);
      expect(result.rows[0]?.selectors).toEqual(
        expect.arrayContaining([
          { name: 'sel-configs-only', type: 'loki', labels: {} },
          { name: 'sel-by-labels', type: 'loki', labels: { tier: 'web' } },
        ]),
      );
    });
  });
});
