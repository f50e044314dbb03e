import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';
import { TestBrowser } from './auth-client';
import { auditRows, auditTableText, callWithToken, createApiToken } from './audit-support';
import { createPerson, PASSWORD, signedIn, startSettings, submitSettings } from './identity-settings-client';

const TEAMS = `resource = 'teams'`;

describe('the audit trail of API writes', () => {
  let server: TestServer;
  let admin: string;
  let adminId: string;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    adminId = (await server.pool.query<{ id: string }>(`select id from people where email = 'admin@opsdeck.local'`)).rows[0]?.id ?? '';
  });
  afterAll(async () => {
    await server.close();
  });

  it('records a data API insert, update and delete with the table, the row ids and the columns written', async () => {
    const created = await server.call('POST', '/api/db/teams', admin, { name: 'Audit team', icon: 'shield' }, { prefer: 'return=representation' });
    expect(created.status).toBe(201);
    const id = String((created.json as unknown as Array<{ id: string }>)[0]?.id);
    expect((await server.call('PATCH', `/api/db/teams?id=eq.${id}`, admin, { icon: 'lock' })).status).toBe(204);
    expect((await server.call('DELETE', `/api/db/teams?id=eq.${id}`, admin)).status).toBe(204);

    const rows = await auditRows(server, `${TEAMS} and resource_id = $1`, [id], 3);
    expect(rows.map((row) => [row.action, row.method, row.status, row.changed_fields])).toEqual([
      ['create', 'POST', 201, ['name', 'icon']],
      ['update', 'PATCH', 204, ['icon']],
      ['delete', 'DELETE', 204, []],
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({ actor_id: adminId, actor_name: 'Ada Admin', via: 'session', route: '/api/db/:relation', resource_ids: [id] });
      expect(row.request_id).not.toBeNull();
    }
    expect(rows[0]?.changes).toEqual({ name: 'Audit team', icon: 'shield' });
    expect(rows[1]?.changes).toEqual({ icon: 'lock' });
  });

  it('keeps every row id of a bulk write and no single resource id', async () => {
    const created = await server.call('POST', '/api/db/teams?select=id', admin, [{ name: 'Bulk a' }, { name: 'Bulk b' }, { name: 'Bulk c' }], {
      prefer: 'return=representation',
    });
    expect(created.status).toBe(201);
    const ids = (created.json as unknown as Array<{ id: string }>).map((row) => row.id).sort();
    const [row] = await auditRows(server, `${TEAMS} and resource_ids @> $1::text[]`, [ids]);
    expect(row?.resource_id).toBeNull();
    expect([...(row?.resource_ids ?? [])].sort()).toEqual(ids);
    expect(row?.changes).toEqual([{ name: 'Bulk a' }, { name: 'Bulk b' }, { name: 'Bulk c' }]);
  });

  it('records a domain route write with its resource, the id it created and the fields, never the secret values', async () => {
    const created = await server.call('POST', '/api/canary/connections', admin, {
      name: 'audit-http',
      type: 'http',
      url: 'https://example.test/api',
      username: 'robot',
      password: 'conn-password-7f3a',
      secret_properties: { apiKey: 'conn-secret-prop-91c2' },
    });
    expect(created.status).toBe(201);
    const id = String(created.json.id);
    const [row] = await auditRows(server, `route = '/api/canary/connections' and resource_id = $1`, [id]);
    expect(row).toMatchObject({ resource: 'connections', action: 'create', method: 'POST', status: 201, via: 'session', actor_id: adminId });
    expect(row?.changed_fields).toEqual(['name', 'type', 'url', 'username', 'password', 'secret_properties']);
    expect(row?.changes).toEqual({ name: 'audit-http', type: 'http', url: 'https://example.test/api', username: 'robot' });

    expect((await server.call('DELETE', `/api/canary/connections/${id}`, admin)).status).toBe(204);
    const [removed] = await auditRows(server, `route = '/api/canary/connections/:id' and action = 'delete' and resource_id = $1`, [id]);
    expect(removed).toMatchObject({ resource: 'connections', status: 204 });
  });

  it('records an identity settings change and a sign-in by field names only', async () => {
    const email = 'audit-settings@example.test';
    const personId = await createPerson(server, email, ['editor']);
    const browser = await signedIn(server, email, PASSWORD);
    const flow = await startSettings(browser);
    const changed = await submitSettings(browser, flow, { method: 'password', password: 'audit-new-passphrase-5d1e' });
    expect(changed.status).toBe(200);

    const [settings] = await auditRows(server, `route like '/api/auth/self-service/settings%' and actor_id = $1`, [personId]);
    expect(settings).toMatchObject({ via: 'session', method: 'POST', resource: 'auth', changes: null });
    expect(settings?.changed_fields).toEqual(expect.arrayContaining(['method', 'password']));

    const signIns = await auditRows(server, `route like '/api/auth/self-service/login%' and via = 'anonymous'`);
    expect(signIns.length).toBeGreaterThan(0);
    for (const row of signIns) {
      expect(row.changes).toBeNull();
      expect(row.actor_id).toBeNull();
    }
    expect(signIns.some((row) => row.changed_fields.includes('password'))).toBe(true);
  });

  it('marks a write made with an API token via api_token, with the token id and its owner', async () => {
    const { token, id: tokenId } = await createApiToken(server, admin, 'editor', 'audit trail token');
    const created = await callWithToken(server, token, 'POST', '/api/db/teams', { name: 'Made by a token' }, { prefer: 'return=representation' });
    expect(created.status).toBe(201);
    const [row] = await auditRows(server, `${TEAMS} and api_token_id = $1`, [tokenId]);
    expect(row).toMatchObject({ via: 'api_token', actor_id: adminId, action: 'create', changes: { name: 'Made by a token' } });

    const [minted] = await auditRows(server, `resource = 'api_tokens' and resource_id = $1`, [tokenId]);
    expect(minted).toMatchObject({ action: 'create', route: '/api/auth/api-tokens', via: 'session', changes: { name: 'audit trail token', role: 'editor', expiresInDays: 30 } });
  });

  it('records alert ingestion made with a responder token, as a script would send it', async () => {
    const { token, id: tokenId } = await createApiToken(server, admin, 'responder', 'alertmanager');
    const payload = {
      version: '4',
      groupKey: '{}:{alertname="AuditTrailProbe"}',
      truncatedAlerts: 0,
      status: 'firing',
      receiver: 'opsdeck',
      groupLabels: { alertname: 'AuditTrailProbe' },
      commonLabels: { alertname: 'AuditTrailProbe', severity: 'warning' },
      commonAnnotations: {},
      externalURL: 'http://alertmanager.example.test',
      alerts: [
        {
          status: 'firing',
          labels: { alertname: 'AuditTrailProbe', severity: 'warning' },
          annotations: { summary: 'probe' },
          startsAt: new Date().toISOString(),
          endsAt: '0001-01-01T00:00:00Z',
          generatorURL: 'http://prometheus.example.test/graph',
          fingerprint: 'audit-trail-probe',
        },
      ],
    };
    const reply = await callWithToken(server, token, 'POST', '/api/alerts/alertmanager', payload);
    expect(reply.status, reply.text).toBeLessThan(300);
    const [row] = await auditRows(server, `route = '/api/alerts/alertmanager' and api_token_id = $1`, [tokenId]);
    expect(row).toMatchObject({ via: 'api_token', actor_id: adminId, method: 'POST', resource: 'incident', status: reply.status });
    expect(row?.changed_fields).toEqual(expect.arrayContaining(['version', 'status', 'alerts']));
  });

  it('records neither reads nor refused writes', async () => {
    const viewer = await server.cookieFor('viewer');
    expect((await server.call('GET', '/api/db/teams?name=eq.Never%20written', admin)).status).toBe(200);
    expect((await server.call('POST', '/api/db/teams', viewer, { name: 'Never written' })).status).toBe(403);
    expect((await server.call('POST', '/api/db/teams', admin, { name: 'Never written', nope: 1 })).status).toBe(400);
    // Rows land in the order their requests finished: once the marker's row is in, the others would be too.
    expect((await server.call('POST', '/api/db/teams', admin, { name: 'Marker after refusals' })).status).toBe(201);
    await auditRows(server, `${TEAMS} and changes->>'name' = 'Marker after refusals'`);
    expect(await auditRows(server, `changes::text like '%Never written%' or route like '%Never%'`, [], 0)).toEqual([]);
  });

  it('never keeps a secret value anywhere in the table: connections, notifications, canaries, tokens, passwords', async () => {
    const secrets = {
      connection: 'zz-connection-password-0a1b',
      connectionProperty: 'zz-connection-secret-prop-2c3d',
      urlPassword: 'zz-url-password-4e5f',
      notification: 'zz-notification-token-6a7b',
      webhook: 'zz-webhook-query-token-8c9d',
      header: 'zz-header-bearer-0e1f',
      canary: 'zz-canary-basic-password-2a3b',
      login: 'zz-typed-wrong-password-4c5d',
      newPassword: 'zz-new-account-passphrase-6e7f',
    };
    const connection = await server.call('POST', '/api/canary/connections', admin, {
      name: 'audit-secrets-hook',
      type: 'generic_webhook',
      url: `https://hooks.example.test/notify?token=${secrets.webhook}`,
      password: secrets.connection,
      secret_properties: { signingSecret: secrets.connectionProperty },
    });
    expect(connection.status).toBe(201);
    const team = await server.call('POST', '/api/db/teams?select=id', admin, { name: 'Secret keepers' }, { prefer: 'return=representation' });
    const teamId = String((team.json as unknown as Array<{ id: string }>)[0]?.id);
    const notification = await server.call('POST', '/api/db/notifications', admin, {
      name: 'audit secrets',
      events: ['check.failed'],
      team_id: teamId,
      properties: { webhookToken: secrets.notification, channel: 'ops', relay: `smtp://mailer:${secrets.urlPassword}@mail.example.test` },
    });
    expect(notification.status, notification.text).toBe(201);
    const canary = await server.call('POST', '/api/db/canaries', admin, {
      name: 'audit-secret-canary',
      spec: {
        schedule: '@every 5m',
        http: [
          {
            name: 'audit-secret-http',
            url: 'https://status.example.test',
            headers: [{ name: 'Authorization', value: `Bearer ${secrets.header}` }],
            authentication: { username: 'ada', password: secrets.canary },
          },
        ],
      },
    });
    expect(canary.status, canary.text).toBe(201);
    const created = await createApiToken(server, admin, 'viewer', 'never kept');
    expect(created.status).toBe(201);

    const email = 'audit-secrets@example.test';
    await createPerson(server, email, ['viewer']);
    const stranger = await signedIn(server, email, PASSWORD);
    const flow = await startSettings(stranger);
    expect((await submitSettings(stranger, flow, { method: 'password', password: secrets.newPassword })).status).toBe(200);
    const failed = await new TestBrowser(server.url).signIn(email, secrets.login);
    expect(failed.status).toBe(400);
    expect((await new TestBrowser(server.url).signIn(email, secrets.newPassword)).status).toBe(200);

    await auditRows(server, `resource = 'canaries' and changes->>'name' = 'audit-secret-canary'`);
    await auditRows(server, `resource = 'notifications' and changes->>'name' = 'audit secrets'`);
    const text = await auditTableText(server);
    expect(text).toContain('audit-secrets-hook');
    expect(text).toContain('Secret keepers');
    for (const [name, secret] of Object.entries({ ...secrets, token: created.token })) {
      expect(text.includes(secret), `${name} is in audit_log`).toBe(false);
    }
    const hashes = await server.pool.query<{ token_hash: string }>('select token_hash from api_tokens');
    for (const { token_hash } of hashes.rows) expect(text).not.toContain(token_hash);
  });
});
