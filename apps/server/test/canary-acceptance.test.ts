import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_FIELD_RULES, CHECK_TYPES, CHECK_TYPES_NOT_RUN, MINIMAL_CHECKS, placeAt, placeExample, valueAtPath, type CheckType } from '@opsdeck/shared';
import { syncCanaryChecks } from '../src/modules/health/canary-sync';
import { startTestServer, type JsonReply, type TestServer } from './harness';

/**
 * Fields that exclude each other on one check (a request is authenticated one way, S3 keys come from a connection or
 * the check): each group goes in a check of its own. A group lists the catalogue paths (or top-level keys) it holds.
 */
const EXCLUSIVE: Partial<Record<CheckType, Readonly<Record<string, readonly string[]>>>> = {
  http: { digest: ['digest'], oauth2: ['oauth2'], awsSigV4: ['awsSigV4'], crawl: ['crawl'] },
  elasticsearch: { authentication: ['authentication'], credentials: ['username', 'password'] },
  opensearch: { authentication: ['authentication'], credentials: ['username', 'password'] },
  folder: {
    connection: ['awsConnection.connection'],
    keys: ['awsConnection.accessKey', 'awsConnection.secretKey', 'awsConnection.sessionToken'],
    sftpConnection: ['sftpConnection.connection'],
    sftpPassword: ['sftpConnection.host', 'sftpConnection.port', 'sftpConnection.username', 'sftpConnection.password'],
  },
};

/** Fields a group's entry leaves out besides the other groups' (a crawl sends no credentials, headers or body). */
const WITHOUT: Readonly<Record<string, readonly string[]>> = {
  crawl: ['headers', 'body', 'authentication', 'username', 'password', 'connection', 'templateBody', 'env', 'method'],
  // An SFTP folder is a path on that server, not an s3:// bucket.
  sftpConnection: ['awsConnection'],
  sftpPassword: ['awsConnection'],
};

const rootOf = (path: string): string => path.split(/[.[]/)[0] ?? path;

/** The exclusive group a catalogue path belongs to, or null. */
function groupOf(type: CheckType, path: string): string | null {
  for (const [group, members] of Object.entries(EXCLUSIVE[type] ?? {})) {
    if (members.some((member) => member === path || member === rootOf(path) || path.startsWith(`${member}.`))) return group;
  }
  return null;
}

/**
 * The minimal check with every field the catalogue lets run or keeps as inert, each at its example; of the fields that
 * exclude each other, only those of group `only` (the first when not given).
 */
function everyAcceptedField(type: CheckType, only?: string): Record<string, unknown> {
  const kept = only ?? Object.keys(EXCLUSIVE[type] ?? {})[0];
  return Object.entries(CHECK_FIELD_RULES[type]).reduce<Record<string, unknown>>((entry, [path, rule]) => {
    const group = groupOf(type, path);
    const left = (WITHOUT[kept ?? ''] ?? []).includes(rootOf(path));
    return 'example' in rule && !left && (group === null || group === kept) ? placeExample(entry, path, rule) : entry;
  }, { ...MINIMAL_CHECKS[type] });
}

/** One entry per exclusive group (or just one), named apart. */
function acceptedEntries(type: CheckType): Array<Record<string, unknown>> {
  const groups = Object.keys(EXCLUSIVE[type] ?? {});
  if (groups.length === 0) return [everyAcceptedField(type)];
  return groups.map((group) => {
    const entry: Record<string, unknown> = { ...everyAcceptedField(type, group), name: `${String(MINIMAL_CHECKS[type].name)}-${group}` };
    // A signed request takes no Basic credentials (refused beside awsSigV4); the other entries keep them.
    if (group === 'awsSigV4') for (const credential of ['username', 'password', 'authentication']) Reflect.deleteProperty(entry, credential);
    return entry;
  });
}

const KUBERNETES_RESOURCE_CANARY = {
  apiVersion: 'canaries.flanksource.com/v1',
  kind: 'Canary',
  metadata: { name: 'kube-pods', namespace: 'default' },
  spec: {
    schedule: '@every 5m',
    kubernetesResource: [{ name: 'deploy-nginx', resources: [{ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'nginx' } }], waitFor: { timeout: '2m' } }],
  },
};

describe('canary acceptance: nothing a save holds is ignored (ADR 0069)', () => {
  let server: TestServer;
  let admin: string;
  let editor: string;

  const storedCanaries = async (prefix: string): Promise<number> =>
    (await server.pool.query<{ count: number }>(`select count(*)::integer as count from canaries where name like $1 || '%'`, [prefix])).rows[0]?.count ?? 0;

  function expectRefused(reply: JsonReply, code: string, path: string, label: string): void {
    expect(reply.status, `${label}: ${reply.text}`).toBe(400);
    expect(reply.json.code, label).toBe(code);
    expect(String(reply.json.details), label).toContain(`${path}: `);
  }

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    editor = await server.cookieFor('editor');
  });
  afterAll(async () => {
    await server.close();
  });

  it.each(CHECK_TYPES)('saves a %s check with every field that runs or is inert, and its check row keeps each one', async (type) => {
    const entries = acceptedEntries(type);
    const created = await server.call('POST', '/api/canary/canaries', admin, { name: `accept-${type}`, spec: { schedule: '@every 5m', [type]: entries } });
    expect(created.status, created.text).toBe(201);
    const rows = await server.pool.query<{ type: string; spec: Record<string, unknown> }>('select type, spec from checks where canary_id = $1 and deleted_at is null', [created.json.id]);
    expect(rows.rows.map((row) => row.type)).toEqual(entries.map(() => type));
    for (const [path, rule] of Object.entries(CHECK_FIELD_RULES[type])) {
      // Secrets are stored sealed, so what is kept is the field, not its plain value.
      if (rule.verdict !== 'refused') expect(rows.rows.some((row) => valueAtPath(row.spec, path) !== undefined), `${type}.${path}`).toBe(true);
    }
  });

  it('refuses every field the catalogue refuses, on the canary routes and the data API alike, and stores nothing', async () => {
    for (const type of CHECK_TYPES) {
      for (const [path, rule] of Object.entries(CHECK_FIELD_RULES[type])) {
        if (rule.verdict !== 'refused') continue;
        const entry = placeAt(MINIMAL_CHECKS[type], path, 'x');
        const named = `${type}[0].${path.replaceAll('[]', '[0]')}`.replace(/\[0\]$/, '');
        const spec = { [type]: [entry] };
        expectRefused(await server.call('POST', '/api/canary/canaries', admin, { name: `refuse-${type}`, spec }), 'OD_CHECK_FIELD_NOT_RUN', named, `route ${named}`);
        expectRefused(await server.call('POST', '/api/db/canaries', admin, { name: `refuse-${type}`, spec }), 'OD_CHECK_FIELD_NOT_RUN', named, `data API ${named}`);
      }
    }
    expect(await storedCanaries('refuse-')).toBe(0);
  });

  it('refuses the kubernetesResource canary as pasted, through both paths, naming the type and the types that run', async () => {
    const yaml = `apiVersion: canaries.flanksource.com/v1\nkind: Canary\nmetadata:\n  name: kube-pods\nspec:\n  schedule: "@every 5m"\n  kubernetesResource:\n    - name: deploy-nginx\n      resources: []\n`;
    const viaRoute = await server.call('POST', '/api/canary/canaries', admin, { name: 'kube-pods', yaml });
    expectRefused(viaRoute, 'OD_CHECK_TYPE_NOT_RUN', 'kubernetesResource', 'route');
    expect(viaRoute.json.message).toBe(`This server does not run kubernetesResource checks; it runs ${CHECK_TYPES.join(', ')}`);
    expectRefused(await server.call('POST', '/api/db/canaries', admin, { name: 'kube-pods', spec: KUBERNETES_RESOURCE_CANARY }), 'OD_CHECK_TYPE_NOT_RUN', 'kubernetesResource', 'data API');
    for (const type of Object.keys(CHECK_TYPES_NOT_RUN)) {
      expectRefused(await server.call('POST', '/api/db/canaries', admin, { name: 'kube-pods', spec: { [type]: [{ name: 'x' }] } }), 'OD_CHECK_TYPE_NOT_RUN', type, type);
    }
    expect(await storedCanaries('kube-pods')).toBe(0);
  });

  it('runs the same rules on data-API updates and upserts as on inserts', async () => {
    const created = await server.call('POST', '/api/db/canaries', admin, { name: 'dataapi-web', spec: { http: [MINIMAL_CHECKS.http] } }, { prefer: 'return=representation' });
    expect(created.status, created.text).toBe(201);
    const id = (created.json as unknown as Array<{ id: string }>)[0]?.id ?? '';
    const refusedSpec = { http: [{ ...MINIMAL_CHECKS.http, tlsConfig: { handshakeTimeout: '5s' } }] };
    expectRefused(await server.call('PATCH', `/api/db/canaries?id=eq.${id}`, admin, { spec: refusedSpec }), 'OD_CHECK_FIELD_NOT_RUN', 'http[0].tlsConfig.handshakeTimeout', 'update');
    expectRefused(
      await server.call('POST', '/api/db/canaries', admin, { id, name: 'dataapi-web', spec: refusedSpec }, { prefer: 'resolution=merge-duplicates' }),
      'OD_CHECK_FIELD_NOT_RUN',
      'http[0].tlsConfig.handshakeTimeout',
      'upsert',
    );
    // What was saved still turns into its checks: the sync reads it as the routes do.
    expect(await syncCanaryChecks(server.pool, id, { reschedule: false })).toMatchObject({ upserted: 1, error: null });
  });

  it('refuses a schedule that is no cron on every path that saves a canary, naming the field', async () => {
    const spec = { schedule: '8 46 *', tcp: [MINIMAL_CHECKS.tcp] };
    expectRefused(await server.call('POST', '/api/canary/canaries', admin, { name: 'cron-route', spec }), 'OD_CANARY_SPEC', 'schedule', 'route spec');
    expectRefused(
      await server.call('POST', '/api/canary/canaries', admin, { name: 'cron-route', schedule: '8 46 *', spec: { tcp: [MINIMAL_CHECKS.tcp] } }),
      'OD_CANARY_SPEC',
      'schedule',
      'route column',
    );
    expectRefused(await server.call('POST', '/api/db/canaries', admin, { name: 'cron-db', spec }), 'OD_CANARY_SPEC', 'schedule', 'data API spec');
    expectRefused(await server.call('POST', '/api/db/canaries', admin, { name: 'cron-db', schedule: '8 46 *' }), 'OD_CANARY_SPEC', 'schedule', 'data API column');
    const created = await server.call('POST', '/api/db/canaries', admin, { name: 'cron-db' }, { prefer: 'return=representation' });
    const id = (created.json as unknown as Array<{ id: string }>)[0]?.id ?? '';
    expectRefused(await server.call('PATCH', `/api/db/canaries?id=eq.${id}`, admin, { schedule: '8 46 *' }), 'OD_CANARY_SPEC', 'schedule', 'data API update');
    expect((await server.pool.query('select 1 from canaries where name like $1', ['cron-route%'])).rowCount).toBe(0);
  });

  it('refuses a schedule that is no cron for scrapers and topologies too, on their data-API writes', async () => {
    const scraperColumn = await server.call('POST', '/api/db/config_scrapers', admin, { name: 'cron-scraper', schedule: '8 46 *' });
    expect(scraperColumn.status, scraperColumn.text).toBe(400);
    expect(scraperColumn.json.details).toBe('schedule');
    const scraperSpec = await server.call('POST', '/api/db/config_scrapers', admin, {
      name: 'cron-scraper',
      spec: { schedule: '8 46 *', http: [{ type: 'Api::Status', id: '$.id', url: 'http://127.0.0.1:9/status' }] },
    });
    expect(scraperSpec.status, scraperSpec.text).toBe(400);
    expect(scraperSpec.json.details).toBe('spec.schedule');
    const topologyColumn = await server.call('POST', '/api/db/topologies', admin, { name: 'cron-topology', schedule: '8 46 *' });
    expect(topologyColumn.status, topologyColumn.text).toBe(400);
    expect(topologyColumn.json).toMatchObject({ code: 'OD_TOPOLOGY_SPEC', details: 'schedule' });
    const topologySpec = await server.call('POST', '/api/db/topologies', admin, { name: 'cron-topology', spec: { schedule: '8 46 *', components: [{ name: 'web' }] } });
    expect(topologySpec.status, topologySpec.text).toBe(400);
    expect(topologySpec.json).toMatchObject({ code: 'OD_TOPOLOGY_SPEC', details: 'spec.schedule' });
  });

  it('still asks for the execute permission first: an editor writing an exec check through the data API is refused 403, refused fields or not', async () => {
    for (const spec of [{ exec: [MINIMAL_CHECKS.exec] }, { exec: [{ ...MINIMAL_CHECKS.exec, env: [{ name: 'A', value: 'b' }] }] }]) {
      const reply = await server.call('POST', '/api/db/canaries', editor, { name: 'editor-exec', spec });
      expect(reply.status, reply.text).toBe(403);
      expect(reply.json.code).toBe('OD_EXEC_FORBIDDEN');
    }
    const allowed = await server.call('POST', '/api/db/canaries', editor, { name: 'editor-tcp', spec: { tcp: [{ ...MINIMAL_CHECKS.tcp, test: { expr: 'true' } }] } });
    expect(allowed.status, allowed.text).toBe(201);
  });
});
