import { describe, expect, it } from 'vitest';
import { useDataApiSuite } from './data-api-fixture';

describe('data API singular responses', () => {
  const suite = useDataApiSuite('viewer');

  it('returns one object for the singular media type and PGRST116 otherwise', async () => {
    const one = await suite.db.from('dx_clients').select('name').eq('id', 2).single();
    expect(one.data).toEqual({ name: 'Globex' });
    const many = await suite.db.from('dx_clients').select('name').single();
    expect(many.status).toBe(406);
    expect(many.error).toMatchObject({ code: 'PGRST116' });
    const none = await suite.db.from('dx_clients').select('name').eq('id', 99).maybeSingle();
    expect(none.data).toBeNull();
    expect(none.error).toBeNull();
  });

  it('rolls back a singular write that touches more than one row', async () => {
    const { status, error } = await suite.editor.from('dx_tasks').update({ title: 'Same' }).eq('project_id', 1).select('id').single();
    expect(status).toBe(406);
    expect(error?.code).toBe('PGRST116');
    expect((await suite.fx.server.pool.query(`select count(*)::int as n from dx_tasks where title = 'Same'`)).rows[0]).toEqual({ n: 0 });
  });
});
