import { describe, expect, it } from 'vitest';
import { useDataApiSuite } from './data-api-fixture';

/** `Prefer: resolution=…` with `on_conflict=`; starts from one user (11, Eve) to upsert over. */
describe('data API upsert', () => {
  const suite = useDataApiSuite('editor', async (prepared) => {
    await prepared.server.pool.query(`insert into dx_users values (11, 'Eve')`);
  });

  it('merges duplicates on upsert and ignores them when asked', async () => {
    const merged = await suite.db.from('dx_users').upsert({ id: 11, name: 'Eve Two' }).select('name');
    expect(merged.data).toEqual([{ name: 'Eve Two' }]);
    const ignored = await suite.db.from('dx_users').upsert({ id: 11, name: 'Eve Three' }, { ignoreDuplicates: true }).select('name');
    expect(ignored.data).toEqual([]);
    expect((await suite.fx.server.pool.query('select name from dx_users where id = 11')).rows).toEqual([{ name: 'Eve Two' }]);
  });

  it('upserts on the columns named by on_conflict', async () => {
    await suite.fx.server.pool.query('create unique index dx_users_name_key on dx_users (name)');
    const { data, error } = await suite.db.from('dx_users').upsert({ id: 11, name: 'Eve Two' }, { onConflict: 'name' }).select('id,name');
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 11, name: 'Eve Two' }]);
    // Only a conflict on name, not on the primary key, turns this new id into an update of Eve's row.
    const moved = await suite.db.from('dx_users').upsert({ id: 99, name: 'Eve Two' }, { onConflict: 'name' }).select('id,name');
    expect(moved.data).toEqual([{ id: 99, name: 'Eve Two' }]);
  });
});
