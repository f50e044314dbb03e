import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue } from '../src/platform/event-queue';
import type { ResolvedConnection } from '../src/modules/connections';
import { NOTIFICATION_CONSUMER, NotificationDeliveryConsumer, notificationHandlers } from '../src/modules/notifications/notification-engine';
import type { DeliverNotification, NotificationMessage } from '../src/modules/notification-providers';
import { TEST_SECRET_KEY } from './global-setup';
import { startTestServer, type TestServer } from './harness';

/** Mission Control's Connection and Notification kinds, written from their published shapes (mission-control fixtures). */
const SLACK = `apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata:
  name: slack
  namespace: mc
spec:
  slack:
    channel: "#alerts"
    botName: opsdeck
    token:
      value: xoxb-apply-test-token
`;

const HOOK = `apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata:
  name: hook
  namespace: mc
spec:
  type: generic_webhook
  url: http://127.0.0.1:9/hook
`;

const DEPLOYMENTS = `apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata:
  name: deployment-health-alerts
  namespace: mc
spec:
  events:
    - check.failed
  filter: check.type == 'http'
  title: "Check {{.check.name}} is {{.check.status}}"
  template: |
    {{.check.name}} failed{{if .check.type}} ({{.check.type}}){{end}}
    [Reference]({{.permalink}})
  to:
    connection: connection://mc/slack
    properties:
      channel: "#deploys"
`;

const CRONJOBS = `apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata:
  name: cronjob-alerts
  namespace: default
spec:
  events:
    - check.failed
  filter: check.type == 'http'
  to:
    email: alerts@acme.test
`;

interface Outcome {
  kind: string;
  name: string;
  action: string;
  error: { code: string; details: string | null; message: string } | null;
}

describe('applying Mission Control Notification and Connection resources', () => {
  let server: TestServer;
  let admin: string;
  let editor: string;
  let checkId: string;
  const deliveries: Array<{ connection: ResolvedConnection; message: NotificationMessage }> = [];

  const apply = (content: string, options: { cookie?: string; query?: string; path?: string } = {}) =>
    server.call('POST', `/api/apply${options.query ?? ''}`, options.cookie ?? admin, { files: [{ path: options.path ?? 'mc.yaml', content }] });
  const outcomes = (json: Record<string, unknown>) => json.documents as Outcome[];
  const row = async (table: 'notifications' | 'connections', namespace: string, name: string) =>
    (await server.pool.query<Record<string, unknown>>(`select * from ${table} where namespace = $1 and name = $2 and deleted_at is null`, [namespace, name])).rows[0];

  const deliver: DeliverNotification = async (connection, message) => {
    deliveries.push({ connection, message });
    return { providerMessageId: null };
  };
  const consumer = () =>
    new NotificationDeliveryConsumer({
      pool: server.pool,
      bus: server.running.context.bus,
      consumer: NOTIFICATION_CONSUMER,
      handlers: notificationHandlers({ pool: server.pool, secretKey: TEST_SECRET_KEY, deliver, publicUrl: 'https://opsdeck.test/', fallbackUrl: 'http://localhost:0' }),
      leaseMs: 0,
      backoffMs: 0,
      claimBatch: 1,
    });

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    editor = await server.cookieFor('editor');
    // The demo notifications would match these events too.
    await server.pool.query('update notifications set deleted_at = now() where deleted_at is null');
    const canary = await server.pool.query<{ id: string }>(`insert into canaries (name) values ('apply-notifications') returning id`);
    const check = await server.pool.query<{ id: string }>(`insert into checks (canary_id, type, name, status) values ($1, 'http', 'checkout api', 'unhealthy') returning id`, [
      canary.rows[0]?.id,
    ]);
    checkId = check.rows[0]?.id ?? '';
  });

  afterAll(async () => {
    await server.close();
  });

  it('creates a connection and a notification naming it in one apply, the token sealed and never returned', async () => {
    const reply = await apply([DEPLOYMENTS, SLACK, HOOK].join('---\n'));
    expect(reply.status, reply.text).toBe(200);
    expect(outcomes(reply.json).map((o) => `${o.kind} ${o.name} ${o.action}`)).toEqual([
      'Notification deployment-health-alerts created',
      'Connection slack created',
      'Connection hook created',
    ]);
    const slack = await row('connections', 'mc', 'slack');
    expect(slack).toMatchObject({ type: 'slack', source: 'apply', username: null, properties: { channel: '#alerts', botName: 'opsdeck' } });
    expect(slack?.password_encrypted).toBeInstanceOf(Buffer);
    expect(String(slack?.password_encrypted)).not.toContain('xoxb-apply-test-token');
    const listed = await server.call('GET', '/api/canary/connections?query=slack', admin);
    expect(listed.text).not.toContain('xoxb-apply-test-token');
    expect(listed.text).toContain('"password_set":true');
    expect(await row('connections', 'mc', 'hook')).toMatchObject({ type: 'generic_webhook', url: 'http://127.0.0.1:9/hook' });
    const notification = await row('notifications', 'mc', 'deployment-health-alerts');
    expect(notification).toMatchObject({
      source: 'apply',
      events: ['check.failed'],
      template_syntax: 'gotemplate',
      person_id: null,
      team_id: null,
      custom_services: [{ connection: 'connection://mc/slack', channel: '#deploys' }],
    });
  });

  it('renders the Go template title and body of an applied notification when its event is delivered', async () => {
    deliveries.length = 0;
    await enqueue(server.pool, 'check.failed', { id: checkId, check_id: checkId, name: 'checkout api', status: 'unhealthy' });
    await consumer().drain();
    const sent = deliveries.find((delivery) => delivery.connection.name === 'slack');
    expect(sent?.message.title).toBe('Check checkout api is unhealthy');
    expect(sent?.message.body).toBe(`checkout api failed (http)\n[Reference](https://opsdeck.test/health?checkId=${checkId})`);
    expect(sent?.message.options).toMatchObject({ channel: '#deploys' });
    expect(sent?.connection.password).toBe('xoxb-apply-test-token');
  });

  it("sends to.email through the first email connection, to that address only", async () => {
    await server.pool.query(`update connections set deleted_at = now() where type in ('email', 'smtp') and deleted_at is null`);
    const refused = await apply(CRONJOBS);
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ code: 'OD_APPLY_DOCUMENT', details: 'mc.yaml document 1: spec.to.email' });
    await server.pool.query(`insert into connections (name, namespace, type, url, properties) values ('mail', 'default', 'email', 'smtp://127.0.0.1:9', '{"from": "opsdeck@example.test"}')`);
    const reply = await apply(CRONJOBS);
    expect(reply.status, reply.text).toBe(200);
    expect((await row('notifications', 'default', 'cronjob-alerts'))?.custom_services).toEqual([{ connection: 'connection://default/mail', to: 'alerts@acme.test' }]);
    deliveries.length = 0;
    await enqueue(server.pool, 'check.failed', { id: checkId, check_id: checkId, name: 'checkout api', status: 'unhealthy' });
    await consumer().drain();
    const mail = deliveries.find((delivery) => delivery.connection.type === 'email');
    expect(mail?.message.to).toEqual(['alerts@acme.test']);
  });

  it("filters with Mission Control's matchQuery(.check, …) and refuses a query it does not run when applied", async () => {
    const matching = DEPLOYMENTS.replace('name: deployment-health-alerts', 'name: match-query')
      .replace("filter: check.type == 'http'", 'filter: matchQuery(.check, "type=http name=checkout* labels.Expected-Fail!=true")')
      .replace('connection: connection://mc/slack', 'connection: connection://mc/hook')
      .replace('title: "Check {{.check.name}} is {{.check.status}}"', 'title: "matched {{.check.name}}"');
    const applied = await apply(matching);
    expect(applied.status, applied.text).toBe(200);
    const unsupported = await apply(matching.replace('name: match-query', 'name: match-query-or').replace('type=http name=checkout*', 'type=http or name=checkout*'));
    expect(unsupported.json).toMatchObject({ code: 'OD_NOTIFICATION_FILTER', details: 'mc.yaml document 1: spec.filter' });
    expect(String(unsupported.json.message)).toContain("'or' is not run by this server");
    deliveries.length = 0;
    await enqueue(server.pool, 'check.failed', { id: checkId, check_id: checkId, name: 'checkout api', status: 'unhealthy' });
    await consumer().drain();
    expect(deliveries.map((delivery) => delivery.message.title)).toContain('matched checkout api');
    await server.pool.query(`update checks set name = 'payments api' where id = $1`, [checkId]);
    deliveries.length = 0;
    await enqueue(server.pool, 'check.failed', { id: checkId, check_id: checkId, name: 'payments api', status: 'unhealthy' });
    await consumer().drain();
    expect(deliveries.map((delivery) => delivery.message.title)).not.toContain('matched payments api');
    await server.pool.query(`update checks set name = 'checkout api' where id = $1`, [checkId]);
  });

  it('sends an event of a resource once per repeatInterval and records the repeats as skipped with the reason', async () => {
    const repeating = DEPLOYMENTS.replace('name: deployment-health-alerts', 'name: repeating')
      .replace('connection: connection://mc/slack', 'connection: connection://mc/hook')
      .replace('title: "Check {{.check.name}} is {{.check.status}}"', 'title: "repeating {{.check.name}}"')
      .concat('  repeatInterval: 4h\n');
    const applied = await apply(repeating);
    expect(applied.status, applied.text).toBe(200);
    expect((await row('notifications', 'mc', 'repeating'))?.properties).toEqual({ repeatInterval: '4h' });
    for (let round = 0; round < 2; round += 1) {
      await enqueue(server.pool, 'check.failed', { id: checkId, check_id: checkId, name: 'checkout api', status: 'unhealthy' });
      await consumer().drain();
    }
    const history = await server.pool.query<{ status: string; reason: string | null }>(
      `select h.status, h.reason from notification_send_history h join notifications n on n.id = h.notification_id where n.name = 'repeating' order by h.created_at`,
    );
    expect(history.rows.map((entry) => entry.status)).toEqual(['sent', 'skipped']);
    expect(history.rows[1]?.reason).toMatch(/^Repeat interval: check\.failed was sent at .* inside the repeat interval of 4h$/);
  });

  it("keeps Mission Control's waitFor and waitForEvalPeriod in the notification's properties, where the delivery reads them", async () => {
    const waiting = CRONJOBS.replace('metadata:\n  name: cronjob-alerts', 'metadata:\n  name: waiting').concat('  waitFor: 2m\n  waitForEvalPeriod: 30s\n');
    const applied = await apply(waiting);
    expect(applied.status, applied.text).toBe(200);
    expect((await row('notifications', 'default', 'waiting'))?.properties).toEqual({ waitFor: '2m', waitForEvalPeriod: '30s' });
  });

  it('refuses by name what Mission Control notifications do that this server does not, and saves nothing', async () => {
    const cases: Array<[string, string, string]> = [
      ['  repeatInterval: soon\n', 'OD_NOTIFICATION_PROPERTIES', 'spec.repeatInterval'],
      ['  groupBy: [owner]\n', 'OD_NOTIFICATION_PROPERTIES', 'spec.groupBy'],
      ['  waitFor: soon\n', 'OD_NOTIFICATION_PROPERTIES', 'spec.waitFor'],
      ['  waitForEvalPeriod: 30s\n', 'OD_NOTIFICATION_PROPERTIES', 'spec.waitForEvalPeriod'],
      ['  repeatInterval: 4h\n  inhibitions:\n    - direction: sideways\n      from: Kubernetes::Node\n      to: [Kubernetes::Pod]\n', 'OD_NOTIFICATION_PROPERTIES', 'spec.inhibitions'],
      ['  fallback:\n    playbook: mc/diagnose\n', 'OD_APPLY_DOCUMENT', 'spec.fallback.playbook'],
    ];
    for (const [extra, code, field] of cases) {
      const reply = await apply(CRONJOBS.replace('metadata:\n  name: cronjob-alerts', 'metadata:\n  name: refused-one') + extra);
      expect(reply.status, field).toBe(400);
      expect(reply.json).toMatchObject({ code, details: `mc.yaml document 1: ${field}` });
    }
    const url = await apply(CRONJOBS.replace('metadata:\n  name: cronjob-alerts', 'metadata:\n  name: refused-two').replace('email: alerts@acme.test', 'url: slack://token@channel'));
    expect(url.json).toMatchObject({ code: 'OD_NOTIFICATION_FIELD_NOT_RUN', details: 'mc.yaml document 1: spec.to.url' });
    const playbook = await apply(CRONJOBS.replace('metadata:\n  name: cronjob-alerts', 'metadata:\n  name: refused-six').replace('email: alerts@acme.test', 'playbook: mc/diagnose'));
    expect(playbook.json).toMatchObject({ code: 'OD_APPLY_DOCUMENT', details: 'mc.yaml document 1: spec.to.playbook' });
    const event = await apply(CRONJOBS.replace('metadata:\n  name: cronjob-alerts', 'metadata:\n  name: refused-three').replace('- check.failed', '- component.status.error'));
    expect(event.json).toMatchObject({ code: 'OD_NOTIFICATION_EVENTS', details: 'mc.yaml document 1: spec.events' });
    const goTemplate = await apply(DEPLOYMENTS.replace('name: deployment-health-alerts', 'name: refused-four').replace('{{.check.name}} failed', '{{.check.name | nosuchfunction}}'));
    expect(goTemplate.json).toMatchObject({ code: 'OD_NOTIFICATION_TEMPLATE', details: 'mc.yaml document 1: spec.template' });
    const person = await apply(CRONJOBS.replace('metadata:\n  name: cronjob-alerts', 'metadata:\n  name: refused-five').replace('email: alerts@acme.test', 'person: nobody@nowhere.test'));
    expect(person.json).toMatchObject({ code: 'OD_APPLY_DOCUMENT', details: 'mc.yaml document 1: spec.to.person' });
    const stored = await server.pool.query(`select name from notifications where name like 'refused-%'`);
    expect(stored.rows).toEqual([]);
  });

  it('refuses a connection kind or field it does not run, and a value read from a Kubernetes Secret, by name', async () => {
    const labelled = await apply(HOOK.replace('name: hook\n', 'name: labelled\n  labels:\n    team: web\n'));
    expect(labelled.json).toMatchObject({ code: 'OD_APPLY_DOCUMENT', details: 'mc.yaml document 1: metadata.labels' });
    const kms = await apply('apiVersion: mission-control.flanksource.com/v1\nkind: Connection\nmetadata:\n  name: kms\nspec:\n  awskms:\n    keyID: alias/sops\n');
    expect(kms.json).toMatchObject({ code: 'OD_CONNECTION_FIELD_NOT_RUN', details: 'mc.yaml document 1: spec.awskms' });
    const secretRef = await apply(SLACK.replace('      value: xoxb-apply-test-token', '      valueFrom:\n        secretKeyRef:\n          name: slack\n          key: token').replace('name: slack\n  namespace', 'name: slack-ref\n  namespace'));
    expect(secretRef.json).toMatchObject({ code: 'OD_CONNECTION_FIELD_NOT_RUN', details: 'mc.yaml document 1: spec.slack.token.valueFrom' });
    const bearer = await apply(HOOK.replace('name: hook', 'name: bearer').replace('  type: generic_webhook\n  url: http://127.0.0.1:9/hook\n', '  http:\n    url: https://api.example.test\n    bearer:\n      value: t0ken\n'));
    expect(bearer.json).toMatchObject({ code: 'OD_CONNECTION_FIELD_NOT_RUN', details: 'mc.yaml document 1: spec.http.bearer' });
    const inUrl = await apply('apiVersion: mission-control.flanksource.com/v1\nkind: Connection\nmetadata:\n  name: db\nspec:\n  postgres:\n    url:\n      value: postgres://app:s3cret@db.example.test:5432/app\n');
    expect(inUrl.status, inUrl.text).toBe(200);
    expect(await row('connections', 'default', 'db')).toMatchObject({ url: 'postgres://db.example.test:5432/app', username: 'app' });
  });

  it('refuses console edits of an applied connection, and a re-apply that moves the URL keeps no earlier secret', async () => {
    const slack = await row('connections', 'mc', 'slack');
    const patch = await server.call('PATCH', `/api/canary/connections/${String(slack?.id)}`, admin, { url: 'https://attacker.example.test/' });
    expect(patch.status, patch.text).toBe(400);
    expect(patch.json.code).toBe('OD_APPLIED_READ_ONLY');
    const remove = await server.call('DELETE', `/api/canary/connections/${String(slack?.id)}`, admin);
    expect(remove.json.code).toBe('OD_APPLIED_READ_ONLY');
    const notification = await row('notifications', 'mc', 'deployment-health-alerts');
    const edit = await server.call('PATCH', `/api/db/notifications?id=eq.${String(notification?.id)}`, admin, { filter: 'true' });
    expect(edit.status).toBe(400);
    const moved = await apply('apiVersion: mission-control.flanksource.com/v1\nkind: Connection\nmetadata:\n  name: db\nspec:\n  postgres:\n    url: postgres://elsewhere.example.test:5432/app\n');
    expect(moved.status, moved.text).toBe(200);
    expect(await row('connections', 'default', 'db')).toMatchObject({ url: 'postgres://elsewhere.example.test:5432/app', username: null, password_encrypted: null });
  });

  it('refuses an editor who may not write connections, and prunes applied notifications and connections the files no longer hold', async () => {
    const byEditor = await apply(HOOK.replace('name: hook', 'name: editor-hook'), { cookie: editor });
    expect(byEditor.status).toBe(403);
    const dry = await apply(SLACK, { query: '?prune=true&dryRun=true' });
    expect(outcomes(dry.json).filter((o) => o.action === 'pruned').map((o) => `${o.kind} ${o.name}`).sort()).toEqual([
      'Connection db',
      'Connection hook',
      'Notification cronjob-alerts',
      'Notification deployment-health-alerts',
      'Notification match-query',
      'Notification repeating',
      'Notification waiting',
    ]);
    const pruned = await apply(SLACK, { query: '?prune=true' });
    expect(pruned.status, pruned.text).toBe(200);
    expect(await row('notifications', 'mc', 'deployment-health-alerts')).toBeUndefined();
    expect(await row('connections', 'mc', 'hook')).toBeUndefined();
    expect(await row('connections', 'mc', 'slack')).toBeDefined();
  });
});
