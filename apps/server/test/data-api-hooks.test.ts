import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

describe('data API write hooks', () => {
  let server: TestServer;
  let cookie: string;
  let hypothesisId: string;
  let incidentId: string;

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await server.cookieFor('commander');
    const incident = await server.pool.query<{ id: string }>(
      `insert into incidents (title, type, severity, status) values ('Hook test', 'availability', 'low', 'open') returning id`,
    );
    incidentId = incident.rows[0]?.id ?? '';
    const hypothesis = await server.pool.query<{ id: string }>(
      `insert into hypotheses (incident_id, title, type, status) values ($1, 'root', 'root', 'possible') returning id`,
      [incidentId],
    );
    hypothesisId = hypothesis.rows[0]?.id ?? '';
  });
  afterAll(async () => {
    await server.close();
  });

  async function send(method: 'POST' | 'PATCH', path: string, body: unknown): Promise<Response> {
    return fetch(`${server.url}/api/db/${path}`, {
      method,
      headers: { cookie, 'content-type': 'application/json', prefer: 'return=representation' },
      body: JSON.stringify(body),
    });
  }

  it('refuses evidence whose definition-of-done script does not compile, and stores nothing', async () => {
    const response = await send('POST', 'evidences', {
      hypothesis_id: hypothesisId,
      type: 'check',
      description: 'broken script',
      definition_of_done: true,
      script: 'status == ',
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { code: string; message: string };
    expect(body.code).toBe('OD_DOD_SCRIPT');
    expect(body.message).toMatch(/^Invalid definition of done script/);
    const rows = await server.pool.query(`select 1 from evidences where description = 'broken script'`);
    expect(rows.rowCount).toBe(0);
  });

  it('accepts a valid script and refuses a broken one on update', async () => {
    const created = await send('POST', 'evidences', {
      hypothesis_id: hypothesisId,
      type: 'check',
      description: 'good script',
      definition_of_done: true,
      script: 'status == "healthy"',
    });
    expect(created.status).toBe(201);
    const [row] = (await created.json()) as Array<{ id: string }>;
    const patched = await send('PATCH', `evidences?id=eq.${row?.id ?? ''}`, { script: '1 +' });
    expect(patched.status).toBe(400);
    const stored = await server.pool.query<{ script: string }>('select script from evidences where id = $1', [row?.id]);
    expect(stored.rows[0]?.script).toBe('status == "healthy"');
  });

  it('records the signed-in person as the author of a status change made through the data API', async () => {
    const response = await send('PATCH', `incidents?id=eq.${incidentId}`, { status: 'investigating' });
    expect(response.status).toBe(200);
    const history = await server.pool.query<{ email: string }>(
      `select p.email from incident_histories h join people p on p.id = h.created_by
        where h.incident_id = $1 and h.type = 'incident.status_updated'`,
      [incidentId],
    );
    expect(history.rows).toEqual([{ email: 'commander@opsdeck.local' }]);
  });
});
