import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckScheduler } from '../src/modules/health/check-scheduler';
import { startTestServer, type TestServer } from './harness';

interface CanaryResponse {
  id: string;
  checks: { id: string; name: string }[];
}

/** A listener that holds every request until released, counting how many are open at once. */
function holdingListener(): Promise<{ url: string; open: () => number; release: () => void; close: () => Promise<void> }> {
  const waiting: http.ServerResponse[] = [];
  let held = true;
  const server = http.createServer((_, res) => {
    if (held) waiting.push(res);
    else res.end('ok');
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/`,
        open: () => waiting.filter((res) => !res.writableEnded).length,
        release: () => {
          held = false;
          for (const res of waiting) res.end('ok');
        },
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

describe('the check scheduler under many due checks', () => {
  let server: TestServer;
  let admin: string;
  const previousRole = process.env.OPSDECK_ROLE;

  async function createCanary(name: string, yaml: string): Promise<CanaryResponse> {
    const reply = await server.call('POST', '/api/canary/canaries', admin, { name, yaml });
    expect(reply.status, reply.text).toBe(201);
    return reply.json as unknown as CanaryResponse;
  }

  const scheduler = (options: { concurrency: number; networkConcurrency: number; pollMs?: number }) =>
    new CheckScheduler({ pool: server.pool, secretKey: server.running.context.config.secretKey, bus: server.running.context.bus, ...options });

  const recordedOf = async (ids: readonly string[]): Promise<number> =>
    (await server.pool.query<{ n: number }>('select count(distinct check_id)::integer as n from check_statuses where check_id = any($1)', [ids])).rows[0]?.n ?? 0;

  beforeAll(async () => {
    // The api role starts no scheduler of its own; the demo's checks are put out of the way so only these run.
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    await server.pool.query(`update checks set next_runtime = now() + interval '1 day'`);
  });
  afterAll(async () => {
    process.env.OPSDECK_ROLE = previousRole;
    await server.close();
  });

  it('runs many network checks at once while holding checks that start a process to their own, smaller limit', async () => {
    const listener = await holdingListener();
    try {
      const httpYaml = Array.from({ length: 24 }, (_, i) => `  - name: h${i}\n    url: ${listener.url}\n`).join('');
      const execYaml = Array.from({ length: 6 }, (_, i) => `  - name: e${i}\n    script: sleep 1\n`).join('');
      const canary = await createCanary('many-at-once', `http:\n${httpYaml}exec:\n${execYaml}`);
      const execIds = canary.checks.filter((check) => check.name.startsWith('e')).map((check) => check.id);
      const running = scheduler({ concurrency: 2, networkConcurrency: 24 });
      running.start();
      try {
        await expect.poll(() => listener.open(), { timeout: 30_000 }).toBe(24);
        const leased = await server.pool.query<{ n: number }>('select count(*)::integer as n from checks where id = any($1) and lease_owner = $2', [
          execIds,
          running.owner,
        ]);
        expect(leased.rows[0]?.n).toBe(2);
        listener.release();
        await expect.poll(() => recordedOf(canary.checks.map((check) => check.id)), { timeout: 60_000 }).toBe(30);
      } finally {
        await running.stop();
      }
    } finally {
      await listener.close();
    }
  });

  it('claims again as soon as a quarter of its room is free, without waiting for the next poll', async () => {
    const yaml = `exec:\n${Array.from({ length: 12 }, (_, i) => `  - name: quick${i}\n    script: echo ${i}\n`).join('')}`;
    const canary = await createCanary('refilled', yaml);
    // One poll at start and the next a minute later: every run after the first four comes from freed room.
    const running = scheduler({ concurrency: 4, networkConcurrency: 4, pollMs: 60_000 });
    running.start();
    try {
      await expect.poll(() => recordedOf(canary.checks.map((check) => check.id)), { timeout: 45_000 }).toBe(12);
    } finally {
      await running.stop();
    }
  });
});
