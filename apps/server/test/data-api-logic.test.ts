import { describe, expect, it } from 'vitest';
import { useDataApiSuite } from './data-api-fixture';

describe('data API logic groups', () => {
  const suite = useDataApiSuite('viewer');

  it('combines filters with nested or and and groups, negated too', async () => {
    const { data } = await suite.db.from('dx_tasks').select('title').or('priority.gt.2,and(done.is.false,priority.is.null)').order('id');
    expect(data).toEqual([{ title: 'Return' }, { title: 'Orbit' }]);
    const negated = await suite.fx.request('viewer', '/dx_tasks?select=title&not.or=(done.is.true,priority.is.null)');
    expect(await negated.json()).toEqual([{ title: 'Dock' }]);
  });

  it('applies or groups to an embedded resource', async () => {
    const { data } = await suite.db.from('dx_projects').select('id,dx_tasks(title)').or('priority.eq.2,priority.is.null', { referencedTable: 'dx_tasks' }).eq('id', 1);
    expect(data).toEqual([{ id: 1, dx_tasks: [{ title: 'Land' }, { title: 'Return' }] }]);
  });

  it('refuses and/or groups nested deeper than sixteen levels', async () => {
    const nested = (levels: number): string => `(${'and('.repeat(levels)}id.eq.1${')'.repeat(levels)})`;
    const deepest = await suite.fx.request('viewer', `/dx_projects?select=id&or=${encodeURIComponent(nested(16))}`);
    expect(deepest.status).toBe(200);
    expect(await deepest.json()).toEqual([{ id: 1 }]);
    const tooDeep = await suite.fx.request('viewer', `/dx_projects?select=id&or=${encodeURIComponent(nested(17))}`);
    expect(tooDeep.status).toBe(400);
    expect(await tooDeep.json()).toMatchObject({ code: 'PGRST100', message: 'Logic groups are nested too deeply' });
  });
});
