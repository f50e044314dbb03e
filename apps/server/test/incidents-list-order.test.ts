import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEVERITIES, severityRank } from '@opsdeck/shared';
import { startIncidentFixture, type IncidentFixture } from './fixtures/incidents/incident-fixture';

const PREFIX = 'Rank order incident';

interface Listed {
  id: string;
  severity: string | null;
}

/** The incident list's severity sort and the detail page's lookup by display id, as the web app calls them. */
describe('incident list order and display ids through the data API', () => {
  let fx: IncidentFixture;

  beforeAll(async () => {
    fx = await startIncidentFixture();
    // Inserted in alphabetical order of severity, so a sort by name and a sort by rank give different pages.
    const inserted = [...SEVERITIES].sort();
    for (const [index, severity] of [...inserted, null].entries()) {
      await fx.server.pool.query(`insert into incidents (title, severity, status) values ($1, $2, 'open')`, [`${PREFIX} ${index}`, severity]);
    }
  });

  afterAll(async () => {
    await fx.close();
  });

  async function page(ascending: boolean, from: number, size: number): Promise<Listed[]> {
    const db = await fx.db('viewer');
    const { data, error } = await db
      .from('incidents')
      .select('id,severity')
      .like('title', `${PREFIX}%`)
      .order('severity_rank', { ascending })
      .order('id', { ascending })
      .range(from, from + size - 1);
    expect(error).toBeNull();
    return data as Listed[];
  }

  it('pages incidents from the least to the most severe by rank, not by name', async () => {
    const rows = [...(await page(true, 0, 3)), ...(await page(true, 3, 3)), ...(await page(true, 6, 3))];
    expect(rows.map((row) => row.severity)).toEqual([null, 'info', 'warning', 'low', 'medium', 'high', 'blocker', 'critical']);
  });

  it('pages incidents from the most to the least severe when the order is descending', async () => {
    const rows = [...(await page(false, 0, 5)), ...(await page(false, 5, 5))];
    expect(rows.map((row) => row.severity)).toEqual(['critical', 'blocker', 'high', 'medium', 'low', 'warning', 'info', null]);
  });

  it('stores the same rank for every severity as the shared severityRank', async () => {
    const { rows } = await fx.server.pool.query<{ severity: string | null; severity_rank: number }>(
      'select severity, severity_rank from incidents where title like $1',
      [`${PREFIX}%`],
    );
    expect(rows).toHaveLength(SEVERITIES.length + 1);
    for (const row of rows) expect(row.severity_rank).toBe(severityRank(row.severity));
  });

  it('follows a severity change with the rank', async () => {
    const db = await fx.db('commander');
    const created = await db.from('incidents').insert({ title: `${PREFIX} changed`, severity: 'low' }).select('id,severity_rank').single();
    expect(created.error).toBeNull();
    const row = created.data as { id: string; severity_rank: number };
    expect(row.severity_rank).toBe(severityRank('low'));
    const updated = await db.from('incidents').update({ severity: 'blocker' }).eq('id', row.id).select('severity_rank').single();
    expect(updated.error).toBeNull();
    expect((updated.data as { severity_rank: number }).severity_rank).toBe(severityRank('blocker'));
    await fx.server.pool.query('delete from incidents where id = $1', [row.id]);
  });

  it('refuses a written rank as the client error it is', async () => {
    const db = await fx.db('commander');
    const { error, status } = await db.from('incidents').insert({ title: `${PREFIX} forged`, severity: 'low', severity_rank: 7 });
    expect(status).toBe(400);
    expect(error?.code).toBe('428C9');
  });

  it('finds an incident by its display id as well as by its uuid', async () => {
    const db = await fx.db('viewer');
    const { rows } = await fx.server.pool.query<{ id: string; incident_id: string }>(`select id, incident_id from incidents where title = $1`, [`${PREFIX} 0`]);
    const incident = rows[0];
    expect(incident?.incident_id).toMatch(/^INC-\d+$/);
    const byDisplayId = await db.from('incidents').select('id,title').eq('incident_id', incident?.incident_id ?? '');
    expect(byDisplayId.error).toBeNull();
    expect(byDisplayId.data).toEqual([{ id: incident?.id, title: `${PREFIX} 0` }]);
  });

  it("stores the demo's log evidence as spec 000 log lines with selected lines among them", async () => {
    const { rows } = await fx.server.pool.query<{ evidence: { lines: unknown[]; selected_lines: number[] } }>(
      `select e.evidence from evidences e join hypotheses h on h.id = e.hypothesis_id join incidents i on i.id = h.incident_id
        where i.title = 'Checkout latency above SLO' and e.type = 'log'`,
    );
    const payload = rows[0]?.evidence;
    expect(payload?.lines.length).toBeGreaterThan(0);
    for (const line of payload?.lines ?? []) {
      expect(line).toEqual({ timestamp: expect.stringMatching(/^2024-05-01T\d\d:\d\d:\d\dZ$/), message: expect.any(String), labels: expect.any(Object) });
    }
    for (const index of payload?.selected_lines ?? []) expect(index).toBeLessThan(payload?.lines.length ?? 0);
    expect(payload?.selected_lines.map((index) => (payload.lines[index] as { message: string }).message)).toEqual([
      'timeout acquiring connection after 2000ms',
      'POST /checkout 503 2004ms',
    ]);
  });
});
