import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckScheduler } from '../src/modules/health/check-scheduler';
import { startTestServer, type TestServer } from './harness';
import { startSite, type Target } from './fixtures/local-targets';
import { runCanaryNow } from './fixtures/run-canary';

interface LatestRun {
  name: string;
  status: boolean;
  message: string;
  error: string | null;
}

/** canary-checker's `dependsOn` (its http_depends_on fixture): checks run after those they name and read their outputs. */
describe('checks that depend on other checks of their canary', () => {
  let server: TestServer;
  let admin: string;
  let site: Target;
  let base = '';
  const paths: string[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    site = await startSite((req, res) => {
      paths.push(req.url ?? '');
      if (req.url === '/broken') {
        res.writeHead(500);
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(req.url === '/uuid' ? { uuid: 'f3c1-uuid' } : { path: req.url }));
    });
    base = site.url;
  });
  afterAll(async () => {
    await site.close();
    await server.close();
  });

  async function latest(canaryId: string): Promise<LatestRun[]> {
    const rows = await server.pool.query<LatestRun>(
      `select distinct on (k.name) k.name, s.status, s.message, s.error from check_statuses s join checks k on k.id = s.check_id
        where k.canary_id = $1 order by k.name, s.time desc`,
      [canaryId],
    );
    return rows.rows;
  }

  it("runs a check after the one it depends on, its test reading that check's result as outputs", async () => {
    const saved = await server.call('POST', '/api/canary/canaries', admin, {
      name: 'depends-on',
      spec: {
        schedule: '@every 5m',
        http: [
          { name: 'useUuid', url: `${base}/get`, dependsOn: ['getUuid'], test: { expr: "code == 200 && outputs.getUuid.json.uuid == 'f3c1-uuid'" }, display: { expr: 'outputs.getUuid.json.uuid' } },
          { name: 'getUuid', url: `${base}/uuid`, test: { expr: "code == 200 && json.uuid != ''" } },
          { name: 'broken', url: `${base}/broken` },
          { name: 'afterBroken', url: `${base}/after-broken`, dependsOn: ['broken'] },
        ],
      },
    });
    expect(saved.status, saved.text).toBe(201);
    paths.length = 0;
    await runCanaryNow(server, String(saved.json.id));
    const runs = Object.fromEntries((await latest(String(saved.json.id))).map((run) => [run.name, run]));
    expect(runs.getUuid?.status).toBe(true);
    expect(runs.useUuid?.status).toBe(true);
    expect(runs.useUuid?.message).toBe('f3c1-uuid');
    expect(paths.indexOf('/uuid')).toBeLessThan(paths.indexOf('/get'));
    expect(runs.afterBroken?.status).toBe(false);
    expect(runs.afterBroken?.error).toBe("not run: it depends on 'broken', which failed");
    expect(paths).not.toContain('/after-broken');
  });

  it('claims the checks a claimed check depends on when the batch ends before them', async () => {
    const saved = await server.call('POST', '/api/canary/canaries', admin, {
      name: 'depends-on-split',
      spec: {
        schedule: '@every 5m',
        http: [
          { name: 'second', url: `${base}/get`, dependsOn: ['first'], test: { expr: "outputs.first.json.uuid == 'f3c1-uuid'" } },
          { name: 'first', url: `${base}/uuid` },
        ],
      },
    });
    expect(saved.status, saved.text).toBe(201);
    const id = String(saved.json.id);
    // The dependant falls due first, and a batch of one claims it alone.
    await server.pool.query(`update checks set next_runtime = now() - interval '2 days' where canary_id = $1 and name = 'second'`, [id]);
    await server.pool.query(`update checks set next_runtime = now() + interval '1 day' where canary_id = $1 and name = 'first'`, [id]);
    await new CheckScheduler({ pool: server.pool, secretKey: server.running.context.config.secretKey, bus: server.running.context.bus, concurrency: 1 }).runDue();
    const runs = Object.fromEntries((await latest(id)).map((run) => [run.name, run]));
    expect(runs.second?.status).toBe(true);
    expect(runs.first?.status).toBe(true);
  });

  it('refuses at save a dependency that is not a check of the canary, the check itself, or a cycle', async () => {
    for (const [http, problem] of [
      [[{ name: 'a', url: `${base}/a`, dependsOn: ['missing'] }], "'missing' is not a check of this canary"],
      [[{ name: 'a', url: `${base}/a`, dependsOn: ['a'] }], "'a' is the check itself"],
      [[{ name: 'a', url: `${base}/a`, dependsOn: ['b'] }, { name: 'b', url: `${base}/b`, dependsOn: ['a'] }], 'forms a cycle'],
    ] as const) {
      const refused = await server.call('POST', '/api/canary/canaries', admin, { name: 'refused-depends', spec: { http } });
      expect(refused.status, problem).toBe(400);
      expect(String(refused.json.details)).toContain(problem);
    }
  });
});
