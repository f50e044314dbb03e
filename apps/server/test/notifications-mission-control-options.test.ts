import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue } from '../src/platform/event-queue';
import type { ResolvedConnection } from '../src/modules/connections';
import { NOTIFICATION_CONSUMER, NotificationDeliveryConsumer, notificationEngine } from '../src/modules/notifications/notification-engine';
import type { DeliverNotification, NotificationMessage } from '../src/modules/notification-providers';
import { TEST_SECRET_KEY } from './global-setup';
import { HEALTH_PLAYBOOK } from './fixtures/mission-control-notifications';
import { startTestServer, type TestServer } from './harness';

/** Mission Control's published fixtures (mission-control fixtures/notifications), as written there. */
const DEPLOYMENT_WITH_INHIBITION = `apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata:
  name: pod-with-incoming-inhibition
spec:
  events:
    - config.unhealthy
    - config.warning
  repeatInterval: 4h
  to:
    connection: connection://mission-control/slack
  inhibitions:
    - direction: incoming
      from: Kubernetes::Pod
      to:
        - Kubernetes::Deployment
        - Kubernetes::ReplicaSet
      depth: 2
`;

const NODE_WITH_INHIBITION = `apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata:
  name: node-with-pod-inhibition
spec:
  events:
    - config.unhealthy
    - config.warning
  repeatInterval: 4h
  to:
    connection: connection://mission-control/slack
  inhibitions:
    - direction: outgoing
      from: Kubernetes::Node
      to:
        - Kubernetes::Pod
      soft: true
      depth: 1
`;

const CONFIG_HEALTH = `apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata:
  name: config-health
spec:
  events:
    - config.unhealthy
    - config.warning
  waitFor: 2m
  waitForEvalPeriod: 30s
  groupBy:
    - label:app
  to:
    connection: connection://default/slack
`;

const CONNECTIONS = ['hook', 'broken'].map(
  (name) => `apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata:
  name: ${name}
  namespace: mc
spec:
  type: generic_webhook
  url: http://127.0.0.1:9/${name}
`,
);

describe("Mission Control's inhibitions, fallback and groupBy on applied notifications", () => {
  let server: TestServer;
  let admin: string;
  const deliveries: Array<{ connection: ResolvedConnection; message: NotificationMessage }> = [];
  /** Sends to the connection named broken fail while this is above zero, one fewer each time. */
  let brokenFailures = 0;

  const deliver: DeliverNotification = async (connection, message) => {
    if (connection.name === 'broken' && brokenFailures > 0) {
      brokenFailures -= 1;
      throw new Error('webhook answered 503 Service Unavailable');
    }
    deliveries.push({ connection, message });
    return { providerMessageId: null };
  };
  const engine = () => notificationEngine({ pool: server.pool, secretKey: TEST_SECRET_KEY, deliver, publicUrl: 'https://opsdeck.test/', fallbackUrl: 'http://localhost:0' });
  const drain = (maxAttempts = 5) =>
    new NotificationDeliveryConsumer({
      pool: server.pool,
      bus: server.running.context.bus,
      consumer: NOTIFICATION_CONSUMER,
      handlers: engine().handlers,
      leaseMs: 0,
      backoffMs: 0,
      claimBatch: 1,
      maxAttempts,
    }).drain();
  const apply = (content: string, query = '') => server.call('POST', `/api/apply${query}`, admin, { files: [{ path: 'mc.yaml', content }] });
  const configItem = async (name: string, type: string, parentId: string | null = null, labels: Record<string, string> = {}) =>
    (
      await server.pool.query<{ id: string }>(
        `insert into config_items (name, type, config_class, parent_id, labels, health) values ($1, $2, 'Kubernetes', $3, $4, 'unhealthy') returning id`,
        [name, type, parentId, JSON.stringify(labels)],
      )
    ).rows[0]?.id ?? '';
  /** Leaves only this notification live: the others of the suite would send the same events. */
  const only = (name: string) => server.pool.query(`update notifications set deleted_at = now() where deleted_at is null and name <> $1`, [name]);
  const unhealthy = async (configId: string) => {
    await enqueue(server.pool, 'config.unhealthy', { id: configId, config_id: configId });
    await drain();
  };
  const history = async (notification: string, resourceId?: string) =>
    (
      await server.pool.query<{ status: string; recipient: string; reason: string | null; resource_id: string }>(
        `select h.status, h.recipient, h.reason, h.resource_id from notification_send_history h join notifications n on n.id = h.notification_id
          where n.name = $1 and ($2::uuid is null or h.resource_id = $2::uuid) order by h.created_at, h.recipient`,
        [notification, resourceId ?? null],
      )
    ).rows;
  const makeDue = (notification: string) =>
    server.pool.query(
      `update notification_send_history set not_before = now() - interval '1 second'
        where status = 'pending' and notification_id = (select id from notifications where name = $1 and deleted_at is null)`,
      [notification],
    );

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    // The demo notifications would match these events too.
    await server.pool.query('update notifications set deleted_at = now() where deleted_at is null');
    const applied = await apply(CONNECTIONS.join('---\n'));
    expect(applied.status, applied.text).toBe(200);
  });

  afterAll(async () => {
    await server.close();
  });

  it('accepts the published inhibition and groupBy fixtures in a dry run, and refuses the fallback fixture only for its playbook, which does not exist here', async () => {
    const dry = await apply([DEPLOYMENT_WITH_INHIBITION, NODE_WITH_INHIBITION, HEALTH_PLAYBOOK, CONFIG_HEALTH].join('---\n'), '?dryRun=true');
    expect(dry.status, dry.text).toBe(200);
    expect(dry.json.documents).toMatchObject([
      { name: 'pod-with-incoming-inhibition', action: 'created' },
      { name: 'node-with-pod-inhibition', action: 'created' },
      { name: 'config-healths', action: 'refused', error: { code: 'OD_APPLY_DOCUMENT', details: 'mc.yaml document 3: spec.to.playbook' } },
      { name: 'config-health', action: 'created' },
    ]);
    const withConnection = await apply(HEALTH_PLAYBOOK.replace('playbook: mc/diagnose-configs', 'connection: connection://mc/broken'), '?dryRun=true');
    expect(withConnection.json.documents).toMatchObject([{ name: 'config-healths', action: 'created' }]);
  });

  it("refuses inhibitions that would never act, without a repeatInterval, naming the field", async () => {
    const reply = await apply(DEPLOYMENT_WITH_INHIBITION.replace('  repeatInterval: 4h\n', ''));
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ code: 'OD_NOTIFICATION_PROPERTIES', details: 'mc.yaml document 1: spec.inhibitions' });
  });

  it("holds back a Deployment's event while its Pod's was sent inside the repeat interval, and sends an unrelated Deployment's", async () => {
    const applied = await apply(DEPLOYMENT_WITH_INHIBITION.replace('connection://mission-control/slack', 'connection://mc/hook'));
    expect(applied.status, applied.text).toBe(200);
    const deployment = await configItem('web', 'Kubernetes::Deployment');
    const replicaSet = await configItem('web-5d8f', 'Kubernetes::ReplicaSet', deployment);
    const pod = await configItem('web-5d8f-x2k', 'Kubernetes::Pod', replicaSet);
    const lonely = await configItem('batch', 'Kubernetes::Deployment');
    await unhealthy(pod);
    await unhealthy(deployment);
    await unhealthy(lonely);
    expect(await history('pod-with-incoming-inhibition', pod)).toMatchObject([{ status: 'sent' }]);
    const [held] = await history('pod-with-incoming-inhibition', deployment);
    expect(held).toMatchObject({ status: 'skipped', recipient: 'inhibition' });
    expect(held?.reason).toMatch(/^Inhibited: config\.unhealthy of the related Kubernetes::Pod web-5d8f-x2k was sent at .*, inside the repeat interval of 4h$/);
    expect(await history('pod-with-incoming-inhibition', lonely)).toMatchObject([{ status: 'sent' }]);
  });

  it("holds back a Pod's event after its Node's was sent, through a soft relationship", async () => {
    const applied = await apply(NODE_WITH_INHIBITION.replace('connection://mission-control/slack', 'connection://mc/hook'));
    expect(applied.status, applied.text).toBe(200);
    const node = await configItem('node-a', 'Kubernetes::Node');
    const pod = await configItem('api-7c9-qq1', 'Kubernetes::Pod');
    await server.pool.query(`insert into config_relationships (config_id, related_id, relation, selector_id) values ($1, $2, 'runs', 'test')`, [node, pod]);
    await unhealthy(node);
    await unhealthy(pod);
    expect((await history('node-with-pod-inhibition')).map((row) => `${row.resource_id === node ? 'node' : 'pod'} ${row.status}`)).toEqual(['node sent', 'pod skipped']);
  });

  it("sends the message to the fallback recipient when the delivery to the notification's recipient fails", async () => {
    const applied = await apply(HEALTH_PLAYBOOK.replace('playbook: mc/diagnose-configs', 'connection: connection://mc/broken').replace('connection://mc/slack', 'connection://mc/hook'));
    expect(applied.status, applied.text).toBe(200);
    const stored = await server.pool.query<{ properties: unknown }>(`select properties from notifications where name = 'config-healths' and deleted_at is null`);
    expect(stored.rows[0]?.properties).toEqual({ fallback: { custom_services: [{ connection: 'connection://mc/hook' }] } });
    await only('config-healths');
    const item = await configItem('orders-db', 'Kubernetes::StatefulSet');
    brokenFailures = 100;
    deliveries.length = 0;
    await enqueue(server.pool, 'config.unhealthy', { id: item, config_id: item });
    await drain(1);
    expect(deliveries).toEqual([]);
    expect(await engine().releaseWaiting()).toBe(1);
    expect(deliveries.map((delivery) => `${delivery.connection.name}: ${delivery.message.title}`)).toEqual([expect.stringMatching(/^hook: .*orders-db/)]);
    expect((await history('config-healths', item)).map((row) => `${row.recipient} ${row.status}`)).toEqual(['service:connection://mc/broken failed', 'service:connection://mc/hook sent']);
    expect((await history('config-healths', item))[1]?.reason).toBe('Fallback: the delivery to service:connection://mc/broken failed');
    // The queue gave up on the event after one attempt; a later drain must not retry it.
    await server.pool.query(`delete from event_queue where consumer = $1`, [NOTIFICATION_CONSUMER]);
  });

  it('sends nothing to the fallback when a retry delivered the message before its delay was over', async () => {
    const applied = await apply(
      HEALTH_PLAYBOOK.replace('playbook: mc/diagnose-configs', 'connection: connection://mc/broken').replace('connection://mc/slack', 'connection://mc/hook').concat('    delay: 10m\n'),
    );
    expect(applied.status, applied.text).toBe(200);
    const item = await configItem('orders-cache', 'Kubernetes::StatefulSet');
    brokenFailures = 1;
    deliveries.length = 0;
    await enqueue(server.pool, 'config.unhealthy', { id: item, config_id: item });
    await drain();
    expect(await engine().releaseWaiting()).toBe(0);
    await makeDue('config-healths');
    expect(await engine().releaseWaiting()).toBe(1);
    expect(deliveries.map((delivery) => delivery.connection.name)).toEqual(['broken']);
    expect((await history('config-healths', item)).map((row) => `${row.recipient} ${row.status} ${row.reason ?? ''}`)).toEqual([
      'service:connection://mc/broken sent ',
      'fallback skipped Not sent to the fallback: a retry delivered config.unhealthy to service:connection://mc/broken',
    ]);
  });

  it('gathers held events by label:app and lists the rest of each group in its message when the wait is over', async () => {
    const applied = await apply(CONFIG_HEALTH.replace('connection://default/slack', 'connection://mc/hook'));
    expect(applied.status, applied.text).toBe(200);
    await only('config-health');
    const api = await configItem('shop-api', 'Kubernetes::Deployment', null, { app: 'shop' });
    const database = await configItem('shop-db', 'Kubernetes::StatefulSet', null, { app: 'shop' });
    const ledger = await configItem('ledger', 'Kubernetes::Deployment', null, { app: 'billing' });
    for (const item of [api, database, ledger]) await enqueue(server.pool, 'config.unhealthy', { id: item, config_id: item });
    await drain();
    const held = await server.pool.query<{ resource_id: string; group_id: string | null }>(
      `select h.resource_id, h.group_id from notification_send_history h join notifications n on n.id = h.notification_id where n.name = 'config-health' and h.status = 'pending'`,
    );
    const groupOf = (id: string) => held.rows.find((row) => row.resource_id === id)?.group_id;
    expect(groupOf(api)).toEqual(expect.any(String));
    expect(groupOf(database)).toBe(groupOf(api));
    expect(groupOf(ledger)).not.toBe(groupOf(api));
    deliveries.length = 0;
    await makeDue('config-health');
    expect(await engine().releaseWaiting()).toBe(3);
    const bodyOf = (name: string) => deliveries.find((delivery) => delivery.message.title.includes(name))?.message.body ?? '';
    expect(bodyOf('shop-api')).toContain('**Also failing**\n- Kubernetes::StatefulSet/shop-db\n');
    expect(bodyOf('shop-db')).toContain('**Also failing**\n- Kubernetes::Deployment/shop-api\n');
    expect(bodyOf('ledger')).not.toContain('Also failing');
  });

  it('sends one message per group and event inside the repeat interval, and records the rest as skipped', async () => {
    const applied = await apply(
      CONFIG_HEALTH.replace('name: config-health', 'name: config-health-repeat').replace('  waitFor: 2m\n  waitForEvalPeriod: 30s\n', '  repeatInterval: 4h\n').replace('connection://default/slack', 'connection://mc/hook'),
    );
    expect(applied.status, applied.text).toBe(200);
    await only('config-health-repeat');
    const web = await configItem('store-web', 'Kubernetes::Deployment', null, { app: 'store' });
    const cache = await configItem('store-cache', 'Kubernetes::StatefulSet', null, { app: 'store' });
    await unhealthy(web);
    await unhealthy(cache);
    expect((await history('config-health-repeat', web)).map((row) => row.status)).toEqual(['sent']);
    const [skipped] = await history('config-health-repeat', cache);
    expect(skipped).toMatchObject({ status: 'skipped', recipient: 'repeat' });
    expect(skipped?.reason).toMatch(/^Repeat interval: config\.unhealthy was sent for another resource of its group \(groupBy\) at .*, inside the repeat interval of 4h$/);
  });
});
