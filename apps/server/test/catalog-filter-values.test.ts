import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

/**
 * The values the catalog's label and tag filters offer (config_labels, config_tags): each known value with a count of
 * the live items carrying it, moved by the statements that insert, change, soft-delete and delete items (migration
 * 0123), so the list reads a small table instead of probing the items once per value.
 */

const A = '00000000-0000-4000-8000-00000000fa01';
const B = '00000000-0000-4000-8000-00000000fa02';
const C = '00000000-0000-4000-8000-00000000fa03';

describe('catalog filter values', () => {
  let server: TestServer;
  let viewer: string;

  beforeAll(async () => {
    server = await startTestServer();
    viewer = await server.cookieFor('viewer');
  });
  afterAll(async () => {
    await server.close();
  });

  async function offered(view: 'config_labels' | 'config_tags'): Promise<string[]> {
    const reply = await server.call('GET', `/api/db/${view}?select=key,value&key=like.fv-*&order=key.asc,value.asc`, viewer);
    expect(reply.status, reply.text).toBe(200);
    return (JSON.parse(reply.text) as Array<{ key: string; value: string }>).map((row) => `${row.key}=${row.value}`);
  }

  it('offers a value while a live item carries it, through inserts, label changes, soft and hard deletes in one statement each', async () => {
    await server.pool.query(
      `insert into config_items (id, type, config_class, name, labels, tags) values
         ($1, 'FV::Pod', 'FV', 'fv-a', '{"fv-app": "web", "fv-team": "orion"}', '{"fv-cluster": "prod"}'),
         ($2, 'FV::Pod', 'FV', 'fv-b', '{"fv-app": "web"}', '{"fv-cluster": "stage"}'),
         ($3, 'FV::Pod', 'FV', 'fv-c', '"not an object"', '{"fv-cluster": "prod"}')`,
      [A, B, C],
    );
    expect(await offered('config_labels')).toEqual(['fv-app=web', 'fv-team=orion']);
    expect(await offered('config_tags')).toEqual(['fv-cluster=prod', 'fv-cluster=stage']);

    // One item of two leaves web: still offered. A status change alone moves nothing.
    await server.pool.query(`update config_items set labels = '{"fv-app": "api"}' where id = $1`, [A]);
    await server.pool.query(`update config_items set status = 'Running' where id = any($1::uuid[])`, [[A, B, C]]);
    expect(await offered('config_labels')).toEqual(['fv-app=api', 'fv-app=web']);

    // Soft-deleting the last carrier hides the value; bringing the item back offers it again.
    await server.pool.query(`update config_items set deleted_at = now() where id = $1`, [B]);
    expect(await offered('config_labels')).toEqual(['fv-app=api']);
    expect(await offered('config_tags')).toEqual(['fv-cluster=prod']);
    await server.pool.query(`update config_items set deleted_at = null where id = $1`, [B]);
    expect(await offered('config_labels')).toEqual(['fv-app=api', 'fv-app=web']);

    // A deleted item's values go with it; a soft-deleted one's were already gone and are not taken twice.
    await server.pool.query(`update config_items set deleted_at = now() where id = $1`, [C]);
    await server.pool.query(`delete from config_items where id = any($1::uuid[])`, [[A, C]]);
    expect(await offered('config_labels')).toEqual(['fv-app=web']);
    expect(await offered('config_tags')).toEqual(['fv-cluster=stage']);
    const counts = await server.pool.query<{ items: number }>(`select items from config_tag_values where key like 'fv-%' and items < 0`);
    expect(counts.rows).toEqual([]);
  });
});
