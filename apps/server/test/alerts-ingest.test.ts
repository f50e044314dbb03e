import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INCIDENT_RULE_EVENTS, INCIDENT_RULES_CONSUMER } from '../src/modules/incident-rules';
import { labelFingerprint } from '../src/modules/alerts';
import { amAlert, amPayload } from './fixtures/alerts/alertmanager-payloads';
import { startTestServer, type TestServer } from './harness';
import { auditRows, callWithToken, createApiToken } from './audit-support';

interface AlertRow {
  fingerprint: string;
  source: string;
  name: string;
  status: string;
  severity: string | null;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  starts_at: string | null;
  ends_at: string | null;
  generator_url: string | null;
  count: number;
}

describe('alert ingestion', () => {
  let server: TestServer;
  let bearer: Record<string, string>;

  beforeAll(async () => {
    server = await startTestServer();
    // Events are written only for names some consumer subscribed to; the rules engine is that consumer in a worker.
    await server.pool.query(`insert into event_queue_subscriptions (consumer, name) select $1, unnest($2::text[]) on conflict do nothing`, [
      INCIDENT_RULES_CONSUMER,
      [...INCIDENT_RULE_EVENTS],
    ]);
    const cookie = await server.cookieFor('responder');
    bearer = { authorization: `Bearer ${cookie.split('=')[1] ?? ''}` };
  });
  afterAll(async () => {
    await server.close();
  });

  const responder = () => `opsdeck_session=${(bearer.authorization ?? '').slice('Bearer '.length)}`;
  const post = (path: string, body: unknown, headers = bearer) => server.call('POST', path, '', body, headers);

  async function alert(fingerprint: string): Promise<AlertRow | undefined> {
    const result = await server.pool.query<AlertRow>(
      `select fingerprint, source, name, status, severity, labels, annotations, starts_at, ends_at, generator_url, count from alerts where fingerprint = $1`,
      [fingerprint],
    );
    const row = result.rows[0];
    // The pool hands timestamps over as PostgreSQL's text; compared as ISO instants.
    const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());
    return row === undefined ? undefined : { ...row, starts_at: iso(row.starts_at), ends_at: iso(row.ends_at) };
  }

  async function events(fingerprint: string): Promise<string[]> {
    const result = await server.pool.query<{ name: string }>(
      `select name from event_queue where consumer = $1 and properties ->> 'fingerprint' = $2 order by created_at, id`,
      [INCIDENT_RULES_CONSUMER, fingerprint],
    );
    return result.rows.map((row) => row.name);
  }

  it('stores a firing Alertmanager alert with its labels, annotations, times and link, and answers 202', async () => {
    const reply = await post('/api/alerts/alertmanager', amPayload([amAlert('HighErrorRate', 'firing', { fingerprint: 'am-1' })], { alertname: 'HighErrorRate' }));
    expect(reply.status).toBe(202);
    expect(reply.json).toEqual({ accepted: 1, firing: 1, resolved: 0 });
    expect(await alert('am-1')).toEqual({
      fingerprint: 'am-1',
      source: 'alertmanager',
      name: 'HighErrorRate',
      status: 'firing',
      severity: 'critical',
      labels: { alertname: 'HighErrorRate', severity: 'critical', instance: 'api-1:9100', job: 'node' },
      annotations: { summary: 'HighErrorRate on api-1:9100', description: 'Error rate above 5% for 10 minutes' },
      starts_at: '2026-01-12T10:00:00.000Z',
      // Go's zero time, which Alertmanager sends while an alert fires, is no end.
      ends_at: null,
      generator_url: 'http://prometheus.example.com:9090/graph?g0.expr=rate%28http_errors_total%5B5m%5D%29&g0.tab=1',
      count: 1,
    });
    expect(await events('am-1')).toEqual(['alert.firing']);
  });

  it('counts a repeat of the same status without a new event, and queues alert.resolved when it resolves', async () => {
    const firing = amPayload([amAlert('DiskFull', 'firing', { fingerprint: 'am-2' })]);
    expect((await post('/api/alerts/alertmanager', firing)).status).toBe(202);
    expect((await post('/api/alerts/alertmanager', firing)).status).toBe(202);
    expect((await alert('am-2'))?.count).toBe(2);
    expect(await events('am-2')).toEqual(['alert.firing']);

    const resolved = await post('/api/alerts/alertmanager', amPayload([amAlert('DiskFull', 'resolved', { fingerprint: 'am-2' })]));
    expect(resolved.json).toEqual({ accepted: 1, firing: 0, resolved: 1 });
    const row = await alert('am-2');
    expect(row?.status).toBe('resolved');
    expect(row?.ends_at).toBe('2026-01-12T10:30:00.000Z');
    expect(row?.count).toBe(3);
    expect(await events('am-2')).toEqual(['alert.firing', 'alert.resolved']);
  });

  it('takes a grouped notification of several alerts in one request, the last of a repeated fingerprint winning', async () => {
    const alerts = [
      amAlert('InstanceDown', 'firing', { fingerprint: 'am-g1', labels: { instance: 'web-1:9100' } }),
      amAlert('InstanceDown', 'firing', { fingerprint: 'am-g2', labels: { instance: 'web-2:9100' } }),
      amAlert('InstanceDown', 'resolved', { fingerprint: 'am-g3', labels: { instance: 'web-3:9100' } }),
      amAlert('InstanceDown', 'resolved', { fingerprint: 'am-g2', labels: { instance: 'web-2:9100' } }),
    ];
    const reply = await post('/api/alerts/alertmanager', amPayload(alerts, { alertname: 'InstanceDown' }));
    expect(reply.status).toBe(202);
    expect(reply.json).toEqual({ accepted: 4, firing: 2, resolved: 2 });
    expect((await alert('am-g1'))?.status).toBe('firing');
    expect((await alert('am-g2'))?.status).toBe('resolved');
    expect((await alert('am-g3'))?.status).toBe('resolved');
    // A new alert that is already resolved has nothing to resolve.
    expect(await events('am-g1')).toEqual(['alert.firing']);
    expect(await events('am-g2')).toEqual([]);
    expect(await events('am-g3')).toEqual([]);
  });

  it('accepts one generic alert or a list, fingerprinting by sorted labels when none is given', async () => {
    const single = await post('/api/alerts/webhook', { name: 'QueueBacklog', status: 'firing', severity: 'High', labels: { queue: 'orders', env: 'prod' } });
    expect(single.status).toBe(202);
    expect(single.json).toEqual({ accepted: 1, firing: 1, resolved: 0 });
    const fingerprint = labelFingerprint({ env: 'prod', alertname: 'QueueBacklog', queue: 'orders' });
    const row = await alert(fingerprint);
    expect(row).toMatchObject({ source: 'webhook', name: 'QueueBacklog', severity: 'high', count: 1 });

    const list = await post('/api/alerts/webhook', {
      alerts: [
        { status: 'resolved', labels: { queue: 'orders', env: 'prod', alertname: 'QueueBacklog' } },
        { status: 'firing', labels: { alertname: 'CronMissed' }, fingerprint: 'cron-1', generatorURL: 'javascript:alert(1)' },
      ],
    });
    expect(list.json).toEqual({ accepted: 2, firing: 1, resolved: 1 });
    expect((await alert(fingerprint))?.status).toBe('resolved');
    expect(await events(fingerprint)).toEqual(['alert.firing', 'alert.resolved']);
  });

  it('refuses payloads over the limits with coded errors', async () => {
    const many = amPayload(Array.from({ length: 1001 }, (_, i) => amAlert('Flood', 'firing', { fingerprint: `flood-${i}`, labels: { n: String(i) } })));
    const tooMany = await post('/api/alerts/alertmanager', many);
    expect(tooMany.status).toBe(413);
    expect(tooMany.json.code).toBe('OD_ALERTS_TOO_MANY');

    const huge = { alerts: [{ status: 'firing', labels: { alertname: 'Big' }, annotations: { blob: 'x'.repeat(1024 * 1024) } }] };
    const tooLarge = await post('/api/alerts/webhook', huge);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.json.code).toBe('OD_ALERTS_TOO_LARGE');

    const longKey = await post('/api/alerts/webhook', { status: 'firing', labels: { alertname: 'Keys', ['k'.repeat(200)]: 'v' } });
    expect(longKey.status).toBe(400);
    expect(longKey.json.code).toBe('OD_ALERT_INVALID');
    const longValue = await post('/api/alerts/webhook', { status: 'firing', labels: { alertname: 'Values', pod: 'v'.repeat(2000) } });
    expect(longValue.json).toMatchObject({ code: 'OD_ALERT_INVALID', details: 'alerts[0].labels.pod' });
    const nameless = await post('/api/alerts/webhook', { status: 'firing', labels: { pod: 'x' } });
    expect(nameless.json).toMatchObject({ code: 'OD_ALERT_INVALID', details: 'alerts[0].name' });
    const version = await post('/api/alerts/alertmanager', { ...amPayload([amAlert('Old', 'firing')]), version: '3' });
    expect(version.json).toMatchObject({ code: 'OD_ALERT_INVALID', details: 'version' });
    const badTime = await post('/api/alerts/webhook', { status: 'firing', labels: { alertname: 'T' }, startsAt: 'yesterday' });
    expect(badTime.json).toMatchObject({ code: 'OD_ALERT_INVALID', details: 'alerts[0].startsAt' });
    const shape = await post('/api/alerts/webhook', { status: 'burning', labels: {} });
    expect(shape.status).toBe(400);
    expect(shape.json.code).toBe('OD_VALIDATION');
  });

  it('refuses a viewer with 403 and an anonymous caller with 401, storing nothing', async () => {
    const payload = amPayload([amAlert('Forbidden', 'firing', { fingerprint: 'am-forbidden' })]);
    const viewer = await server.cookieFor('viewer');
    expect((await server.call('POST', '/api/alerts/alertmanager', viewer, payload)).status).toBe(403);
    expect((await post('/api/alerts/alertmanager', payload, { authorization: `Bearer ${viewer.split('=')[1] ?? ''}` })).status).toBe(403);
    expect((await post('/api/alerts/webhook', { status: 'firing', labels: { alertname: 'Anon' } }, {})).status).toBe(401);
    expect((await post('/api/alerts/alertmanager', payload, { authorization: 'Bearer not-a-token' })).status).toBe(401);
    expect(await alert('am-forbidden')).toBeUndefined();
  });

  it('lets a viewer read alerts through the data API, a responder delete them, and nobody else write them there', async () => {
    const viewer = await server.cookieFor('viewer');
    const read = await server.call('GET', '/api/db/alerts?fingerprint=eq.am-1&select=name,status', viewer);
    expect(read.status).toBe(200);
    expect(JSON.parse(read.text)).toEqual([{ name: 'HighErrorRate', status: 'firing' }]);
    const admin = await server.cookieFor('admin');
    const insert = await server.call('POST', '/api/db/alerts', admin, { fingerprint: 'x', source: 'webhook', name: 'x', status: 'firing' });
    expect(insert.status).toBe(405);
    expect(insert.json.code).toBe('OD_READ_ONLY_TABLE');
    const patch = await server.call('PATCH', '/api/db/alerts?fingerprint=eq.am-1', admin, { status: 'resolved' });
    expect(patch.status).toBe(405);
    const remove = await server.call('DELETE', '/api/db/incident_rule_groups?rule_id=not.is.null', admin);
    expect(remove.status).toBe(405);
    expect((await alert('am-1'))?.status).toBe('firing');
    // Deleting is allowed, to clear a test alert.
    const cleared = await server.call('DELETE', '/api/db/alerts?fingerprint=eq.am-g3', responder());
    expect(cleared.status).toBe(204);
    expect(await alert('am-g3')).toBeUndefined();
  });

  it('takes alerts from a personal API token of responder rank, refuses a viewer-rank token and a revoked one, and audits the call as the token', async () => {
    const admin = await server.cookieFor('admin');
    const responderToken = await createApiToken(server, admin, 'responder', 'alertmanager receiver');
    const viewerToken = await createApiToken(server, admin, 'viewer', 'read only');
    const payload = amPayload([amAlert('TokenAlert', 'firing', { fingerprint: 'am-token' })], { alertname: 'TokenAlert' });

    const accepted = await callWithToken(server, responderToken.token, 'POST', '/api/alerts/alertmanager', payload);
    expect(accepted.status).toBe(202);
    expect((await alert('am-token'))?.status).toBe('firing');
    const audited = await auditRows(server, `route = '/api/alerts/alertmanager' and api_token_id = $1`, [responderToken.id]);
    expect(audited[0]).toMatchObject({ via: 'api_token', action: 'execute', status: 202 });

    const refused = await callWithToken(server, viewerToken.token, 'POST', '/api/alerts/alertmanager', payload);
    expect(refused.status).toBe(403);

    expect((await server.call('DELETE', `/api/auth/api-tokens/${responderToken.id}`, admin)).status).toBe(204);
    const revoked = await callWithToken(server, responderToken.token, 'POST', '/api/alerts/alertmanager', payload);
    expect(revoked.status).toBe(401);
  });

  it('documents both routes in the OpenAPI document with their body and 202 answer', async () => {
    const doc = await server.call('GET', '/api/openapi.json', '');
    const paths = doc.json.paths as Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>;
    for (const path of ['/api/alerts/alertmanager', '/api/alerts/webhook']) {
      expect(paths[path]?.post?.requestBody).toBeDefined();
      expect(Object.keys(paths[path]?.post?.responses ?? {})).toEqual(expect.arrayContaining(['202', '400', '401', '403', '413']));
    }
  });
});
