import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue } from '../src/platform/event-queue';
import type { ResolvedConnection } from '../src/modules/connections';
import { NOTIFICATION_CONSUMER, NotificationDeliveryConsumer, notificationEngine } from '../src/modules/notifications/notification-engine';
import type { DeliverNotification } from '../src/modules/notification-providers';
import { TEST_SECRET_KEY } from './global-setup';
import { HEALTH_PLAYBOOK } from './fixtures/mission-control-notifications';
import { startTestServer, type TestServer } from './harness';

const SLACK = `apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata:
  name: slack
  namespace: mc
spec:
  type: generic_webhook
  url: http://127.0.0.1:9/slack
`;

describe("Mission Control's playbook recipient: a notification that requests a playbook run", () => {
  let server: TestServer;
  let admin: string;
  let playbookId: string;
  const delivered: ResolvedConnection[] = [];
  const deliver: DeliverNotification = async (connection) => {
    delivered.push(connection);
    return { providerMessageId: null };
  };
  const engine = () => notificationEngine({ pool: server.pool, secretKey: TEST_SECRET_KEY, deliver, publicUrl: 'https://opsdeck.test/', fallbackUrl: 'http://localhost:0' });
  const apply = (content: string, query = '', cookie = admin) => server.call('POST', `/api/apply${query}`, cookie, { files: [{ path: 'mc.yaml', content }] });
  const playbook = async (name: string, spec: Record<string, unknown>) =>
    (await server.pool.query<{ id: string }>(`insert into playbooks (namespace, name, spec) values ('mc', $1, $2) returning id`, [name, JSON.stringify(spec)])).rows[0]?.id ?? '';
  const configItem = async (type: string) =>
    (await server.pool.query<{ id: string }>(`insert into config_items (name, type, config_class, health) values ('web-1', $1, 'Kubernetes', 'unhealthy') returning id`, [type])).rows[0]
      ?.id ?? '';
  /** One config.unhealthy of the item, delivered once (a failure is not retried, so the fallback is held at once). */
  const unhealthy = async (configId: string) => {
    await enqueue(server.pool, 'config.unhealthy', { id: configId, config_id: configId });
    await new NotificationDeliveryConsumer({
      pool: server.pool,
      bus: server.running.context.bus,
      consumer: NOTIFICATION_CONSUMER,
      handlers: engine().handlers,
      leaseMs: 0,
      backoffMs: 0,
      claimBatch: 1,
      maxAttempts: 1,
    }).drain();
  };
  const history = async (resourceId: string) =>
    (
      await server.pool.query<{ status: string; recipient: string; error: string | null; playbook_run_id: string | null }>(
        `select status, recipient, error, playbook_run_id from notification_send_history where resource_id = $1 order by recipient`,
        [resourceId],
      )
    ).rows;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    // The demo notifications would match these events too.
    await server.pool.query('update notifications set deleted_at = now() where deleted_at is null');
    playbookId = await playbook('diagnose-configs', {
      configs: [{ types: ['Kubernetes::Pod'] }],
      parameters: [{ name: 'depth', label: 'Depth', default: '2' }],
      approval: { approvers: { people: ['editor@opsdeck.local'] } },
      actions: [{ name: 'describe', http: { url: 'http://127.0.0.1:9/describe' } }],
    });
  });

  afterAll(async () => {
    await server.close();
  });

  it('passes a dry run of the published health-playbook fixture once its playbook exists, and refuses it before', async () => {
    await server.pool.query(`update playbooks set deleted_at = now() where id = $1`, [playbookId]);
    const missing = await apply(HEALTH_PLAYBOOK, '?dryRun=true');
    expect(missing.json.documents).toMatchObject([{ action: 'refused', error: { code: 'OD_APPLY_DOCUMENT', details: 'mc.yaml document 1: spec.to.playbook' } }]);
    await server.pool.query(`update playbooks set deleted_at = null where id = $1`, [playbookId]);
    const dry = await apply(HEALTH_PLAYBOOK, '?dryRun=true');
    expect(dry.status, dry.text).toBe(200);
    expect(dry.json.documents).toMatchObject([{ name: 'config-healths', action: 'created' }]);
  });

  it("requests a run on the event's catalog item, held by the playbook's approval and made by no person, and records it as sent with the run", async () => {
    const applied = await apply([HEALTH_PLAYBOOK, SLACK].join('---\n'));
    expect(applied.status, applied.text).toBe(200);
    const pod = await configItem('Kubernetes::Pod');
    await unhealthy(pod);
    const [sent] = await history(pod);
    expect(sent).toMatchObject({ status: 'sent', recipient: `playbook:${playbookId}`, error: null });
    const run = await server.pool.query(`select playbook_id, config_id, created_by, status, parameters from playbook_runs where id = $1`, [sent?.playbook_run_id]);
    expect(run.rows).toEqual([{ playbook_id: playbookId, config_id: pod, created_by: null, status: 'waiting', parameters: { depth: '2' } }]);
    expect(delivered).toEqual([]);
  });

  it('records a resource the playbook is not offered for as failed, with why, and sends the event to the fallback', async () => {
    const node = await configItem('Kubernetes::Node');
    await unhealthy(node);
    expect(await history(node)).toMatchObject([
      { status: 'pending', recipient: 'fallback' },
      { status: 'failed', recipient: `playbook:${playbookId}`, error: expect.stringContaining("not offered for the catalog item 'web-1'"), playbook_run_id: null },
    ]);
    await engine().releaseWaiting();
    expect(await history(node)).toMatchObject([
      { status: 'failed', recipient: `playbook:${playbookId}` },
      { status: 'sent', recipient: 'service:connection://mc/slack' },
    ]);
    expect(delivered.map((connection) => connection.name)).toEqual(['slack']);
  });

  it("refuses at save a playbook not offered for the notification's events or needing a parameter it cannot give, through apply and the data API", async () => {
    const checksOnly = await playbook('diagnose-checks', { checks: [{ types: ['http'] }], actions: [{ name: 'a', http: { url: 'http://127.0.0.1:9/a' } }] });
    const offered = await apply(HEALTH_PLAYBOOK.replace('name: config-healths', 'name: refused-kind').replace('mc/diagnose-configs', 'mc/diagnose-checks'));
    expect(offered.status).toBe(400);
    expect(offered.json).toMatchObject({ code: 'OD_NOTIFICATION_PLAYBOOK', details: 'mc.yaml document 1: spec.to.playbook' });
    expect(String(offered.json.message)).toContain('is not offered for any catalog item');
    await playbook('diagnose-asking', { configs: [{ types: ['Kubernetes::Pod'] }], parameters: [{ name: 'reason', label: 'Reason', required: true }], actions: [{ name: 'a', http: { url: 'http://127.0.0.1:9/a' } }] });
    const asking = await apply(HEALTH_PLAYBOOK.replace('name: config-healths', 'name: refused-parameter').replace('mc/diagnose-configs', 'mc/diagnose-asking'));
    expect(asking.json).toMatchObject({ code: 'OD_NOTIFICATION_PLAYBOOK', details: 'mc.yaml document 1: spec.to.playbook' });
    expect(String(asking.json.message)).toContain('requires the parameter reason');
    const viaApi = await server.call('POST', '/api/db/notifications', admin, { events: ['config.unhealthy'], playbook_id: checksOnly });
    expect(viaApi.status).toBe(400);
    expect(viaApi.json).toMatchObject({ code: 'OD_NOTIFICATION_PLAYBOOK', details: 'playbook_id' });
    const stored = await server.pool.query(`select 1 from notifications where name like 'refused-%' or playbook_id = $1`, [checksOnly]);
    expect(stored.rows).toEqual([]);
  });

  it('lets no writer who may not run playbooks save a notification that runs one, through apply or the data API', async () => {
    const responder = await server.cookieFor('responder');
    const applied = await apply(HEALTH_PLAYBOOK.replace('name: config-healths', 'name: refused-writer'), '', responder);
    expect(applied.status).toBe(403);
    const viaApi = await server.call('POST', '/api/db/notifications', responder, { events: ['config.unhealthy'], playbook_id: playbookId });
    expect(viaApi.status).toBe(403);
    const stored = await server.pool.query(`select 1 from notifications where name = 'refused-writer' or (playbook_id = $1 and name is null)`, [playbookId]);
    expect(stored.rows).toEqual([]);
  });
});
