import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection } from '../src/modules/connections/connection-store';
import { startTestServer, type TestServer } from './harness';
import { TEST_SECRET_KEY } from './global-setup';
import { allowLocalDatabases } from './fixtures/local-databases';
import { startPostgresTarget, type PostgresTarget } from './fixtures/postgres-target';
import { runCanaryNow } from './fixtures/run-canary';

const DAY = 24 * 3600 * 1000;
const INJECTION = "x'); insert into writes values (1); --";

/**
 * canary-checker's stateful checks (folder_pass.yaml, posgres_stateful_pass.yaml, stateful_metrics.yaml): templates
 * and expressions read the check's previous run as last_result, so each run asks only for what is new since.
 */
describe('checks that read their previous run (last_result)', () => {
  let server: TestServer;
  let admin: string;
  let folder: string;
  let target: PostgresTarget;
  let count = 0;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    await allowLocalDatabases(server);
    folder = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-stateful-'));
    target = await startPostgresTarget();
    const owner = new pg.Client({ connectionString: target.url });
    await owner.connect();
    await owner.query('create table events (label text)');
    await owner.query('insert into events values ($1)', [INJECTION]);
    await owner.end();
    await createConnection(server.pool, TEST_SECRET_KEY, { name: 'stateful-db', namespace: 'canaries', type: 'postgres', url: target.url }, null);
  });
  afterAll(async () => {
    await target.close();
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  });

  async function save(checks: Record<string, unknown>): Promise<string> {
    count += 1;
    const reply = await server.call('POST', '/api/canary/canaries', admin, { name: `stateful-${count}`, namespace: 'canaries', spec: { schedule: '@every 5m', ...checks } });
    expect(reply.status, reply.text).toBe(201);
    return String(reply.json.id);
  }

  it('counts only the files changed since the newest one the last run saw, as folder_pass.yaml writes it', async () => {
    for (const [name, ageMs] of [
      ['a.log', 2 * DAY],
      ['b.log', DAY],
    ] as const) {
      writeFileSync(path.join(folder, name), name);
      const when = new Date(Date.now() - ageMs);
      utimesSync(path.join(folder, name), when, when);
    }
    const id = await save({
      folder: [
        {
          name: 'new files',
          path: folder,
          filter: { since: '{{- if last_result.results.max }}\n{{ last_result.results.max }}\n{{- else}}\nnow-60d\n{{- end}}\n' },
          transform: { expr: '{"detail": {"max": string(results.?newest.modified.orValue(last_result().results.?max.orValue("now-60d")))}}.toJSON()' },
          display: { expr: 'results.?files.orValue([]).map(i, i.name).join(", ")' },
          test: { expr: 'results.?files.orValue([]).size() > 0' },
        },
      ],
    });
    const first = await runCanaryNow(server, id);
    expect(first.error).toBeNull();
    expect(first.status).toBe(true);
    expect(first.message.split(', ').sort()).toEqual(['a.log', 'b.log']);
    expect(first.details).toEqual({ max: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
    const second = await runCanaryNow(server, id);
    expect(second).toMatchObject({ status: false, message: '', error: 'test failed' });
    // An empty listing reports the folder itself as newest (canary-checker does too), so the next since is the
    // folder's own time: a file changed after it counts.
    writeFileSync(path.join(folder, 'c.log'), 'c');
    const later = new Date(Date.now() + 10_000);
    utimesSync(path.join(folder, 'c.log'), later, later);
    const third = await runCanaryNow(server, id);
    expect(third).toMatchObject({ status: true, message: 'c.log' });
  });

  it('refuses a since that is neither a time nor date math, naming it', async () => {
    const id = await save({ folder: [{ name: 'bad since', path: folder, filter: { since: 'yesterday' } }] });
    const result = await runCanaryNow(server, id);
    expect(result).toMatchObject({ status: false, error: "could not parse filter.since: 'yesterday' is neither an RFC 3339 time nor date math such as now-60d" });
  });

  it('binds the previous rows a query template reads as parameters, so a value from the database cannot change the next statement', async () => {
    const id = await save({
      postgres: [
        {
          name: 'events since',
          connection: 'connection://canaries/stateful-db',
          query:
            "select max(label) as max, count(*) as count from events where {{- if last_result.results.rows }} label = '{{ (index last_result.results.rows 0).max }}' {{- else }} true {{- end }}",
          display: { expr: 'string(results.rows[0].count) + " " + string(results.rows[0].max)' },
        },
      ],
    });
    const first = await runCanaryNow(server, id);
    expect(first).toMatchObject({ status: true, message: `1 ${INJECTION}` });
    const second = await runCanaryNow(server, id);
    expect(second).toMatchObject({ status: true, message: `1 ${INJECTION}` });
    expect(await target.writes()).toBe(0);
  });

  it('fails a query template that would put a value where a name stands, before it reaches the database', async () => {
    const id = await save({
      postgres: [{ name: 'named by value', connection: 'connection://canaries/stateful-db', query: 'select count(*) from {{ if last_result.results.rows }}events{{ else }}{{ "events" }}{{ end }}' }],
    });
    const result = await runCanaryNow(server, id);
    expect(result.status).toBe(false);
    expect(result.error).toMatch(/^failed to template the query: .*names a table, column or schema/);
  });
});
