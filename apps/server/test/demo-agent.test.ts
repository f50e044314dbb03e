import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { agentEnvironment, demoAgentPlan, layOutSampleConfigs } from '../../../scripts/lib/demo-agent.mjs';
import { hashToken } from '../src/auth/shared/session-token';
import { newAgentToken } from '../src/modules/agents';
import { seedDemo } from '../src/seed/demo';
import { LOCAL_DEMO_AGENT, LOCAL_DEMO_AGENT_FILE } from '../src/seed/agents';
import { cloneDatabase, startTestServer, waitFor, type TestServer } from './harness';
import { TEST_SECRET_KEY } from './global-setup';

const CLI = path.resolve(import.meta.dirname, '../src/cli.ts');

describe('the demo seed of a console with a data folder', () => {
  it('leaves the local agent its upstream and a working token beside the database, readable by the console user only', async () => {
    const { db, dispose } = await cloneDatabase();
    const dataDir = mkdtempSync(path.join(inject('testRoot'), 'demo-agent-seed-'));
    try {
      await db.pool.query('truncate people cascade');
      await seedDemo(db.pool, { secretKey: TEST_SECRET_KEY, serverUrl: 'http://127.0.0.1:8080', dataDir });
      const file = path.join(dataDir, LOCAL_DEMO_AGENT_FILE);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const recorded = JSON.parse(readFileSync(file, 'utf8')) as { name: string; upstream: string; token: string };
      expect(recorded).toMatchObject({ name: LOCAL_DEMO_AGENT, upstream: 'http://127.0.0.1:8080' });
      const agent = await db.pool.query('select 1 from agents where name = $1 and access_token_hash = $2 and deleted_at is null', [LOCAL_DEMO_AGENT, hashToken(recorded.token)]);
      expect(agent.rowCount).toBe(1);
    } finally {
      await db.close();
      await dispose();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('npm run demo:agent without a demo console', () => {
  it('says to start the console first', () => {
    const empty = mkdtempSync(path.join(inject('testRoot'), 'demo-agent-none-'));
    expect(() => demoAgentPlan({ DATA_DIR: empty })).toThrow(/demo-agent\.json is missing: start the console with its demo data first \(npm start\)/);
    rmSync(empty, { recursive: true, force: true });
  });
});

/** #34 item 3: one documented command shows one agent online, its checks and configs arriving. */
describe.runIf(inject('dbMode') === 'pglite')('the local demo agent started as npm run demo:agent starts it', () => {
  let server: TestServer;
  let child: ChildProcess | null = null;
  const dirs: string[] = [];
  afterAll(async () => {
    if (child !== null && child.exitCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    await server.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('comes online, and its probes of the console and the sample configs it scrapes arrive upstream', { timeout: 240_000 }, async () => {
    server = await startTestServer();
    const consoleDir = mkdtempSync(path.join(inject('testRoot'), 'demo-agent-console-'));
    const agentDir = mkdtempSync(path.join(inject('testRoot'), 'demo-agent-local-'));
    dirs.push(consoleDir, agentDir);
    // The suites' template was seeded without a data folder: give the local agent a token and the file the seed writes.
    const token = newAgentToken();
    const agent = await server.pool.query<{ id: string }>('update agents set access_token_hash = $1 where name = $2 returning id', [hashToken(token), LOCAL_DEMO_AGENT]);
    const agentId = agent.rows[0]?.id ?? '';
    await server.pool.query(`update canaries set spec = replace(spec::text, 'http://127.0.0.1:9', $1)::jsonb where agent_id = $2`, [server.url, agentId]);
    writeFileSync(path.join(consoleDir, LOCAL_DEMO_AGENT_FILE), JSON.stringify({ name: LOCAL_DEMO_AGENT, upstream: server.url, token }));

    const plan = demoAgentPlan({ DATA_DIR: consoleDir, AGENT_DATA_DIR: agentDir });
    layOutSampleConfigs(plan);
    const env = agentEnvironment(plan, { ...process.env, LOG_LEVEL: 'warn', OPSDECK_AGENT_PULL_MS: '1000', OPSDECK_AGENT_HEARTBEAT_MS: '1000', OPSDECK_AGENT_PUSH_IDLE_MS: '200' });
    delete env.DATABASE_URL;
    delete env.OPSDECK_SECRET_KEY;
    child = spawn(process.execPath, ['--import', 'tsx', CLI, 'agent'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

    const timeout = 180_000;
    try {
      const online = await waitFor(
        'the agent to show online',
        async () => {
          const reply = await server.call('GET', `/api/db/agents_summary?select=name,last_seen&name=eq.${LOCAL_DEMO_AGENT}`, await server.cookieFor('viewer'));
          const row = (reply.json as unknown as Array<{ last_seen: string | null }>)[0];
          return row?.last_seen !== null && row?.last_seen !== undefined && Date.now() - Date.parse(row.last_seen) < 61_000 ? row : null;
        },
        timeout,
      );
      expect(online).toBeTruthy();
      const healthy = await waitFor(
        "the agent's probes of the console",
        async () => {
          const rows = await server.pool.query<{ name: string; status: string }>(`select name, status from checks where agent_id = $1 and status is not null order by name`, [agentId]);
          return rows.rows.length === 2 ? rows.rows : null;
        },
        timeout,
      );
      expect(healthy).toEqual([
        { name: 'local-agent/console-healthz', status: 'healthy' },
        { name: 'local-agent/console-version', status: 'healthy' },
      ]);
      const configs = await waitFor(
        'the sample configs',
        async () => {
          const rows = await server.pool.query<{ name: string }>(`select name from config_items where agent_id = $1 and type = 'App::Config' and deleted_at is null order by name`, [agentId]);
          return rows.rows.length === 2 ? rows.rows.map((row) => row.name) : null;
        },
        timeout,
      );
      expect(configs).toEqual(['checkout-settings', 'search-settings']);
    } catch (error) {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\nagent output:\n${output}`);
    }
  });
});
