import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type JsonReply, type TestServer } from './harness';

const sha256 = (token: string): string => createHash('sha256').update(token).digest('hex');

describe('agent deletion and token rotation', () => {
  let server: TestServer;
  let admin: string;
  let editor: string;
  let viewer: string;
  let responder: string;

  const call = (method: string, url: string, cookie: string, body?: unknown): Promise<JsonReply> => server.call(method, url, cookie, body);

  async function create(name: string): Promise<{ id: string; token: string }> {
    const created = await call('POST', '/api/agents', admin, { name });
    expect(created.status, created.text).toBe(201);
    return { id: String(created.json.id), token: String(created.json.access_token) };
  }

  /** One canary with a check, one scraper and one config item owned by the agent, and one of each owned by this server. */
  async function giveResources(agentId: string | null): Promise<void> {
    const canary = await server.pool.query<{ id: string }>(`insert into canaries (name, agent_id) values ('c-' || gen_random_uuid(), $1) returning id`, [agentId]);
    await server.pool.query(`insert into checks (canary_id, agent_id, type, name) values ($1, $2, 'http', 'probe')`, [canary.rows[0]?.id, agentId]);
    const scraper = await server.pool.query<{ id: string }>(`insert into config_scrapers (name, agent_id) values ('s-' || gen_random_uuid(), $1) returning id`, [agentId]);
    await server.pool.query(
      `insert into config_items (scraper_id, agent_id, type, config_class, name) values ($1, $2, 'Kubernetes::Pod', 'Kubernetes', 'pod')`,
      [scraper.rows[0]?.id, agentId],
    );
  }

  async function liveCounts(agentId: string | null): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const table of ['canaries', 'checks', 'config_scrapers', 'config_items']) {
      const result = await server.pool.query<{ n: number }>(
        `select count(*)::int as n from ${table} where agent_id is not distinct from $1 and deleted_at is null`,
        [agentId],
      );
      counts[table] = result.rows[0]?.n ?? -1;
    }
    return counts;
  }

  async function storedHash(id: string): Promise<{ access_token_hash: string | null; deleted_at: Date | null }> {
    const result = await server.pool.query<{ access_token_hash: string | null; deleted_at: Date | null }>(
      'select access_token_hash, deleted_at from agents where id = $1',
      [id],
    );
    const row = result.rows[0];
    if (row === undefined) throw new Error(`agent ${id} is gone`);
    return row;
  }

  beforeAll(async () => {
    server = await startTestServer();
    [admin, editor, viewer, responder] = await Promise.all([
      server.cookieFor('admin'),
      server.cookieFor('editor'),
      server.cookieFor('viewer'),
      server.cookieFor('responder'),
    ]);
  });
  afterAll(async () => {
    await server.close();
  });

  it('soft-deletes the agent with its checks, canaries, config items and scrapers when cleanup is asked for', async () => {
    const { id } = await create('cleanup-yes');
    await giveResources(id);
    await giveResources(null);
    const localBefore = await liveCounts(null);

    const reply = await call('DELETE', `/api/agents/${id}?cleanup=true`, editor);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json).toEqual({ id, cleanup: true, deleted: { checks: 1, canaries: 1, config_items: 1, config_scrapers: 1 } });

    const stored = await storedHash(id);
    expect(stored.deleted_at).not.toBeNull();
    expect(stored.access_token_hash).toBeNull();
    expect(await liveCounts(id)).toEqual({ canaries: 0, checks: 0, config_scrapers: 0, config_items: 0 });
    // Rows are soft-deleted, not removed, and nothing of this server's own is touched.
    const kept = await server.pool.query<{ n: number }>('select count(*)::int as n from checks where agent_id = $1 and deleted_at is not null', [id]);
    expect(kept.rows[0]?.n).toBe(1);
    expect(await liveCounts(null)).toEqual(localBefore);

    expect((await call('GET', `/api/agents/${id}`, admin)).status).toBe(404);
    const listed = await call('GET', `/api/db/agents_summary?id=eq.${id}`, admin);
    expect(listed.json).toEqual([]);
  });

  it('soft-deletes only the agent, keeping what it created, without cleanup', async () => {
    const { id } = await create('cleanup-no');
    await giveResources(id);

    const reply = await call('DELETE', `/api/agents/${id}?cleanup=false`, admin);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json).toEqual({ id, cleanup: false, deleted: { checks: 0, canaries: 0, config_items: 0, config_scrapers: 0 } });
    expect((await storedHash(id)).deleted_at).not.toBeNull();
    expect(await liveCounts(id)).toEqual({ canaries: 1, checks: 1, config_scrapers: 1, config_items: 1 });
  });

  it('keeps the resources when the cleanup flag is left out', async () => {
    const { id } = await create('cleanup-default');
    await giveResources(id);
    expect((await call('DELETE', `/api/agents/${id}`, admin)).status).toBe(200);
    expect((await liveCounts(id)).checks).toBe(1);
  });

  it('answers 404 for an unknown or already deleted agent and 400 for a bad cleanup flag', async () => {
    const { id } = await create('delete-twice');
    expect((await call('DELETE', `/api/agents/${id}?cleanup=yes`, admin)).status).toBe(400);
    expect((await call('DELETE', `/api/agents/${id}`, admin)).status).toBe(200);
    const again = await call('DELETE', `/api/agents/${id}`, admin);
    expect(again.status).toBe(404);
    expect(again.json).toMatchObject({ code: 'OD404', message: 'Agent not found' });
    expect((await call('DELETE', '/api/agents/00000000-0000-4000-8000-000000000009?cleanup=true', admin)).status).toBe(404);
    expect((await call('POST', `/api/agents/${id}/token`, admin)).status).toBe(404);
  });

  it('refuses deletion and token rotation to viewers and responders, changing nothing', async () => {
    const { id, token } = await create('protected');
    await giveResources(id);
    for (const cookie of [viewer, responder]) {
      const deleted = await call('DELETE', `/api/agents/${id}?cleanup=true`, cookie);
      expect(deleted.status).toBe(403);
      expect(deleted.json.code).toBe('OD403');
      const rotated = await call('POST', `/api/agents/${id}/token`, cookie);
      expect(rotated.status).toBe(403);
      expect(rotated.text).not.toContain('opsdeck_agent_');
    }
    const stored = await storedHash(id);
    expect(stored.deleted_at).toBeNull();
    expect(stored.access_token_hash).toBe(sha256(token));
    expect((await liveCounts(id)).checks).toBe(1);
  });

  it('rotates the token: the new one is answered once, only its hash is stored and the old hash is gone', async () => {
    const { id, token: oldToken } = await create('rotating');
    const reply = await call('POST', `/api/agents/${id}/token`, editor);
    expect(reply.status, reply.text).toBe(200);
    expect(Object.keys(reply.json).sort()).toEqual(['access_token', 'id', 'name']);
    expect(reply.json).toMatchObject({ id, name: 'rotating' });
    const newToken = String(reply.json.access_token);
    expect(newToken).toMatch(/^opsdeck_agent_[A-Za-z0-9_-]{43}$/);
    expect(newToken).not.toBe(oldToken);

    const stored = await storedHash(id);
    expect(stored.access_token_hash).toBe(sha256(newToken));
    const old = await server.pool.query<{ n: number }>('select count(*)::int as n from agents where access_token_hash = $1', [sha256(oldToken)]);
    expect(old.rows[0]?.n).toBe(0);

    for (const url of [`/api/agents/${id}`, `/api/db/agents?id=eq.${id}`, `/api/db/agents_summary?id=eq.${id}`]) {
      const read = await call('GET', url, admin);
      expect(read.status, url).toBe(200);
      expect(read.text, url).not.toContain(newToken);
      expect(read.text, url).not.toContain(sha256(newToken));
    }

    const second = await call('POST', `/api/agents/${id}/token`, admin);
    expect(String(second.json.access_token)).not.toBe(newToken);
    expect((await storedHash(id)).access_token_hash).toBe(sha256(String(second.json.access_token)));
  });
});
