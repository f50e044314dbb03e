import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';
import { startSite, type Target } from './fixtures/local-targets';
import { runCanaryNow } from './fixtures/run-canary';

/**
 * canary-checker's check `relationships` (its alertmanager_mix fixture): each check a transform makes is linked to the
 * pods (catalog items and topology components) its labels name, and the links follow what the next run finds.
 */
describe('check relationships', () => {
  let server: TestServer;
  let admin: string;
  let site: Target;
  let base = '';
  let alerts: Array<{ name: string; pod: string }> = [];
  const pods = new Map<string, string>();
  const components = new Map<string, string>();

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    site = await startSite((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ alerts }));
    });
    base = site.url;
    for (const name of ['web-1', 'web-2']) {
      const config = await server.pool.query<{ id: string }>(
        `insert into config_items (name, type, config_class, tags) values ($1, 'Kubernetes::Pod', 'Kubernetes', '{"namespace": "shop"}') returning id`,
        [name],
      );
      pods.set(name, config.rows[0]?.id ?? '');
      const component = await server.pool.query<{ id: string }>(`insert into components (name, type, namespace) values ($1, 'KubernetesPod', 'shop') returning id`, [name]);
      components.set(name, component.rows[0]?.id ?? '');
    }
  });
  afterAll(async () => {
    await site.close();
    await server.close();
  });

  async function links(table: 'check_config_relationships' | 'check_component_relationships', target: 'config_id' | 'component_id'): Promise<Array<[string, string]>> {
    const rows = await server.pool.query<{ check: string; target: string }>(
      `select k.name as "check", r.${target}::text as target from ${table} r join checks k on k.id = r.check_id
        where r.selector_id like 'check:%' and r.deleted_at is null order by k.name`,
    );
    return rows.rows.map((row) => [row.check, row.target]);
  }

  it('links each check a transform makes to the pods its labels name, and moves the links when the pods change', async () => {
    const saved = await server.call('POST', '/api/canary/canaries', admin, {
      name: 'alerts',
      spec: {
        schedule: '@every 5m',
        http: [
          {
            name: 'alerts',
            url: `${base}/alerts`,
            transform: { expr: "json.alerts.map(a, {'name': a.name, 'labels': {'pod': a.pod, 'namespace': 'shop'}, 'pass': false, 'message': 'firing'}).toJSON()" },
            relationships: {
              configs: [{ name: { label: 'pod' }, namespace: { label: 'namespace' }, type: { value: 'Kubernetes::Pod' } }],
              components: [{ name: { expr: "result.labels.pod" }, type: { value: 'KubernetesPod' } }],
            },
          },
        ],
      },
    });
    expect(saved.status, saved.text).toBe(201);
    alerts = [{ name: 'PodCrashLooping', pod: 'web-1' }];
    await runCanaryNow(server, String(saved.json.id));
    expect(await links('check_config_relationships', 'config_id')).toEqual([['PodCrashLooping', pods.get('web-1')]]);
    expect(await links('check_component_relationships', 'component_id')).toEqual([['PodCrashLooping', components.get('web-1')]]);
    alerts = [{ name: 'PodCrashLooping', pod: 'web-2' }];
    await runCanaryNow(server, String(saved.json.id));
    expect(await links('check_config_relationships', 'config_id')).toEqual([['PodCrashLooping', pods.get('web-2')]]);
    expect(await links('check_component_relationships', 'component_id')).toEqual([['PodCrashLooping', components.get('web-2')]]);
  });

  it('refuses at save a selector whose CEL does not parse, or one that names nothing', async () => {
    for (const relationships of [{ configs: [{ name: { expr: 'result.labels.(' } }] }, { configs: [{}] }, { configs: [{ name: { value: 'a', label: 'b' } }] }]) {
      const refused = await server.call('POST', '/api/canary/canaries', admin, { name: 'refused-relationships', spec: { http: [{ name: 'x', url: `${base}/x`, relationships }] } });
      expect(refused.status, JSON.stringify(relationships)).toBe(400);
      expect(String(refused.json.details)).toContain('relationships');
    }
  });
});
