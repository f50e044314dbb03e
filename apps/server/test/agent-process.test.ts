import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createApp, type RunningApp } from '../src/app';
import { loadConfig } from '../src/platform/config';
import { openDatabase, type Database } from '../src/db/database';
import { freePort } from '../src/bench/server-process';
import { hashToken } from '../src/auth/shared/session-token';
import { newAgentToken } from '../src/modules/agents/agent-token';
import { AGENT_ONLINE_THRESHOLD_MS, agentStatus } from '@opsdeck/shared';
import { TEST_SECRET_KEY } from './global-setup';
import { waitFor } from './harness';

const CLI = path.resolve(import.meta.dirname, '../src/cli.ts');

interface Upstream {
  running: RunningApp;
  db: Database;
  close(): Promise<void>;
}

/** The upstream console in this process, on a folder it can be stopped and restarted on, listening on a fixed port. */
async function startUpstream(dir: string, port: number): Promise<Upstream> {
  const db = await openDatabase({ dataDir: dir, statementTimeoutMs: 15000 });
  const config = loadConfig(
    { ...process.env, LOG_LEVEL: 'silent', OPSDECK_SEED_DEMO: 'false', OPSDECK_ROLE: 'api' },
    { dataDir: dir, secretKey: TEST_SECRET_KEY, databaseUrl: undefined, port, host: '127.0.0.1' },
  );
  const running = await createApp(config, { db, logger: false, listens: true });
  await running.app.listen({ port, host: '127.0.0.1' });
  return {
    running,
    db,
    async close() {
      await running.close();
      await db.close();
    },
  };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(inject('dbMode') === 'pglite')('a remote agent process', () => {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it('runs its assigned check and scraper, delivers everything made while upstream was down exactly once, and goes Offline 61 s after it stops', { timeout: 300_000 }, async () => {
    const upstreamDir = mkdtempSync(path.join(inject('testRoot'), 'agent-upstream-'));
    cpSync(inject('templateDir'), upstreamDir, { recursive: true });
    rmSync(path.join(upstreamDir, 'opsdeck.lock'), { force: true });
    const agentDir = mkdtempSync(path.join(inject('testRoot'), 'agent-local-'));
    const scrapeDir = mkdtempSync(path.join(inject('testRoot'), 'agent-files-'));
    cleanup.push(() => {
      for (const dir of [upstreamDir, agentDir, scrapeDir]) rmSync(dir, { recursive: true, force: true });
    });
    const configUid = randomUUID();
    writeFileSync(path.join(scrapeDir, 'app.yaml'), `kind: ConfigMap\nmetadata:\n  name: agent-app-config\n  uid: ${configUid}\ndata:\n  level: info\n`);

    const port = await freePort();
    const upstreamUrl = `http://127.0.0.1:${port}`;
    let upstream = await startUpstream(upstreamDir, port);
    cleanup.push(() => upstream.close().catch(() => undefined));
    const token = newAgentToken();
    const agentRow = await upstream.db.pool.query<{ id: string }>(`insert into agents (name, access_token_hash) values ('edge', $1) returning id`, [hashToken(token)]);
    const agentId = agentRow.rows[0]?.id ?? '';
    await upstream.db.pool.query(`insert into canaries (name, agent_id, schedule, spec) values ('edge-health', $1, '@every 1s', $2)`, [
      agentId,
      JSON.stringify({ http: [{ name: 'upstream-healthz', url: `${upstreamUrl}/healthz`, responseCodes: [200] }] }),
    ]);
    const scraperRow = await upstream.db.pool.query<{ id: string }>(`insert into config_scrapers (name, agent_id, schedule, spec) values ('edge-files', $1, '@every 1h', $2) returning id`, [
      agentId,
      JSON.stringify({ file: [{ class: 'Kubernetes', type: '$.kind', id: '$.metadata.uid', name: '$.metadata.name', format: 'yaml', paths: [`${scrapeDir}/*.yaml`] }] }),
    ]);

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: agentDir,
      LOG_LEVEL: 'warn',
      OPSDECK_UPSTREAM: upstreamUrl,
      OPSDECK_AGENT_TOKEN: token,
      OPSDECK_SCRAPE_ROOTS: scrapeDir,
      OPSDECK_AGENT_PULL_MS: '1000',
      OPSDECK_AGENT_HEARTBEAT_MS: '1000',
      OPSDECK_AGENT_PUSH_IDLE_MS: '200',
      OPSDECK_AGENT_MAX_BACKOFF_MS: '1000',
    };
    delete env.DATABASE_URL;
    delete env.OPSDECK_SECRET_KEY;
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', CLI, 'agent'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    cleanup.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    });

    const agentStatuses = async (): Promise<number> => {
      const result = await upstream.db.pool.query<{ n: number }>(
        `select count(*)::int as n from check_statuses s join checks k on k.id = s.check_id where k.agent_id = $1`,
        [agentId],
      );
      return result.rows[0]?.n ?? 0;
    };
    try {
      // The agent migrates a fresh embedded database first: tens of seconds on a loaded machine.
      await waitFor('the first results upstream', async () => ((await agentStatuses()) >= 2 ? true : null), 180_000);
      await waitFor(
        'the scraped file upstream',
        async () => {
          // Linked to upstream's scraper, not to the agent's local copy of it.
          const found = await upstream.db.pool.query('select 1 from config_items where agent_id = $1 and name = $2 and scraper_id = $3 and deleted_at is null', [
            agentId,
            'agent-app-config',
            scraperRow.rows[0]?.id,
          ]);
          return found.rowCount === 1 ? true : null;
        },
        30_000,
      );
      const seen = await upstream.db.pool.query<{ hostname: string | null; last_seen: string | null }>('select hostname, last_seen from agents where id = $1', [agentId]);
      expect(seen.rows[0]?.last_seen).not.toBeNull();

      await upstream.close();
      const downAt = Date.now();
      await sleep(5000);
      upstream = await startUpstream(upstreamDir, port);
      const upAt = Date.now();
      // Batches leave in order, so a result made after the restart arriving means everything before it arrived.
      await waitFor(
        'a result made after the restart',
        async () => {
          const latest = await upstream.db.pool.query<{ ok: boolean }>(
            `select max(s.time) > $2::timestamptz as ok from check_statuses s join checks k on k.id = s.check_id where k.agent_id = $1`,
            [agentId, new Date(upAt).toISOString()],
          );
          return latest.rows[0]?.ok === true ? true : null;
        },
        30_000,
      );
      child.kill('SIGTERM');
      await exited;
      const stoppedAt = new Date();
      const lastSeen = async (): Promise<Date> => {
        const row = await upstream.db.pool.query<{ last_seen: Date | string }>('select last_seen from agents where id = $1', [agentId]);
        return new Date(row.rows[0]?.last_seen ?? 0);
      };
      const finalSeen = await lastSeen();
      expect(agentStatus(finalSeen, stoppedAt)).toBe('Online');
      // A stopped agent sends no more heartbeats; the clock is then moved past the threshold instead of waited out.
      await sleep(2000);
      expect((await lastSeen()).getTime()).toBe(finalSeen.getTime());
      expect(agentStatus(finalSeen, new Date(finalSeen.getTime() + AGENT_ONLINE_THRESHOLD_MS))).toBe('Online');
      expect(agentStatus(finalSeen, new Date(finalSeen.getTime() + AGENT_ONLINE_THRESHOLD_MS + 1))).toBe('Offline');

      const upstreamTimes = await upstream.db.pool.query<{ time: string }>(
        `select to_char(s.time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as time
           from check_statuses s join checks k on k.id = s.check_id where k.agent_id = $1 order by s.time`,
        [agentId],
      );
      const local = await openDatabase({ dataDir: agentDir, statementTimeoutMs: 15000 });
      let localTimes: string[];
      let pending: string[];
      try {
        const all = await local.pool.query<{ time: string }>(
          `select to_char(time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as time from check_statuses order by time`,
        );
        localTimes = all.rows.map((row) => row.time);
        const queued = await local.pool.query<{ time: string }>(
          `select to_char((payload->>'time')::timestamptz at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as time
             from agent_outbox where kind = 'check_status' order by seq`,
        );
        pending = queued.rows.map((row) => row.time);
      } finally {
        await local.close();
      }
      const delivered = upstreamTimes.rows.map((row) => row.time);
      // Everything the agent produced is upstream once, or still queued for the next push: nothing lost, nothing twice.
      expect(new Set(delivered).size).toBe(delivered.length);
      expect([...delivered, ...pending].sort()).toEqual(localTimes);
      const madeWhileDown = localTimes.filter((time) => {
        const at = Date.parse(`${time}Z`);
        return at > downAt && at < upAt;
      });
      expect(madeWhileDown.length).toBeGreaterThan(0);
      for (const time of madeWhileDown) expect(delivered).toContain(time);
      const failed = await upstream.db.pool.query<{ n: number }>(
        `select count(*)::int as n from check_statuses s join checks k on k.id = s.check_id
          where k.agent_id = $1 and not s.status and s.time > $2 and s.time < $3`,
        [agentId, new Date(downAt).toISOString(), new Date(upAt).toISOString()],
      );
      expect(failed.rows[0]?.n).toBeGreaterThan(0);
      const jobs = await upstream.db.pool.query<{ n: number }>('select count(*)::int as n from job_history where agent_id = $1', [agentId]);
      expect(jobs.rows[0]?.n).toBeGreaterThan(0);
      const scrapeJobs = await upstream.db.pool.query<{ n: number }>(
        `select count(*)::int as n from job_history where agent_id = $1 and name = 'Scraper' and resource_id = $2`,
        [agentId, scraperRow.rows[0]?.id],
      );
      expect(scrapeJobs.rows[0]?.n).toBeGreaterThan(0);
      const ingestion = await upstream.db.pool.query<{ applied: number }>(
        `select coalesce(sum(success_count), 0)::int as applied from job_history where name = 'AgentPushIngestion' and resource_id = $1`,
        [agentId],
      );
      expect(ingestion.rows[0]?.applied).toBeGreaterThanOrEqual(delivered.length);
    } catch (error) {
      const jobs = await upstream.db.pool
        .query<{ name: string; status: string; details: unknown }>('select name, status, details from job_history where agent_id = $1', [agentId])
        .then((result) => JSON.stringify(result.rows).slice(0, 2000), (failure: unknown) => String(failure));
      throw new Error(`${error instanceof Error ? error.message : String(error)}\nupstream jobs: ${jobs}\nagent output:\n${output.slice(-4000)}`);
    }
  });
});
