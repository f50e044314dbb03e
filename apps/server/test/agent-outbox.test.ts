import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { outboxSize } from '../src/agent/outbox';
import { Pusher } from '../src/agent/pusher';
import { UpstreamClient, UpstreamError } from '../src/agent/upstream-client';
import { startTestServer, type TestServer } from './harness';

interface Sent {
  batchId: string;
  names: string[];
}

/** Upstream as the pusher sees it: answers each push with the next scripted status (200 once the script runs out). */
class ScriptedUpstream extends UpstreamClient {
  readonly sent: Sent[] = [];

  constructor(private readonly statuses: Array<number | null>) {
    super('http://127.0.0.1:9', 'unused');
  }

  override async call<T>(_method: 'GET' | 'POST', _path: string, body?: unknown): Promise<T> {
    const batch = body as { batchId: string; rows: Array<{ payload: { name: string } }> };
    this.sent.push({ batchId: batch.batchId, names: batch.rows.map((row) => row.payload.name) });
    const status = this.statuses.length === 0 ? 200 : this.statuses.shift();
    if (status === null) throw new UpstreamError('upstream unreachable: connect ECONNREFUSED', null);
    if (status !== undefined && status >= 400) throw new UpstreamError(`upstream answered ${status} to POST /api/agent/push: {"code":"OD_VALIDATION"}`, status);
    return Promise.resolve({ applied: batch.rows.length, duplicate: false } as T);
  }
}

describe('agent outbox delivery', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(async () => {
    await server.pool.query('delete from agent_outbox');
    for (const name of ['one', 'two', 'three']) {
      await server.pool.query(`insert into agent_outbox (kind, payload) values ('job_history', $1)`, [JSON.stringify({ name })]);
    }
  });

  function pusher(upstream: ScriptedUpstream, refused: string[] = []): Pusher {
    return new Pusher({
      pool: server.pool,
      client: upstream,
      batchRows: 2,
      idleMs: 1000,
      minBackoffMs: 1,
      maxBackoffMs: 4,
      onRefused: (batchId) => refused.push(batchId),
    });
  }

  it('resends the same batch with the same id after an outage, a 5xx or a rejected token, and deletes it once accepted', async () => {
    const upstream = new ScriptedUpstream([null, 503, 401]);
    const push = pusher(upstream);
    for (let i = 0; i < 3; i += 1) await expect(push.step()).rejects.toBeInstanceOf(UpstreamError);
    expect(await push.step()).toBe(0);
    expect(upstream.sent.map((sent) => sent.names)).toEqual([['one', 'two'], ['one', 'two'], ['one', 'two'], ['one', 'two']]);
    expect(new Set(upstream.sent.map((sent) => sent.batchId)).size).toBe(1);
    expect(await outboxSize(server.pool)).toBe(1);
  });

  it('sets a batch upstream refuses as malformed aside, keeps it with the reason, and delivers what follows', async () => {
    const upstream = new ScriptedUpstream([400]);
    const refused: string[] = [];
    const push = pusher(upstream, refused);
    expect(await push.step()).toBe(0);
    expect(await push.step()).toBe(0);
    expect(await push.step()).toBe(1000);
    expect(upstream.sent.map((sent) => sent.names)).toEqual([['one', 'two'], ['three']]);
    expect(refused).toEqual([upstream.sent[0]?.batchId]);
    expect(await outboxSize(server.pool)).toBe(0);
    const kept = await server.pool.query<{ name: string; refusal: string }>(
      `select payload ->> 'name' as name, refusal from agent_outbox where refused_at is not null order by seq`,
    );
    expect(kept.rows.map((row) => row.name)).toEqual(['one', 'two']);
    expect(kept.rows[0]?.refusal).toMatch(/answered 400/);
  });
});
