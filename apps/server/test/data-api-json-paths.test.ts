import { describe, expect, it } from 'vitest';
import { useDataApiSuite } from './data-api-fixture';

describe('data API JSON paths', () => {
  const suite = useDataApiSuite('viewer');

  it('reads JSON paths with -> and ->> and names them after the last key', async () => {
    const { data } = await suite.db.from('dx_projects').select('id,meta->stage,stage_name:meta->stage->>name,meta->>size').eq('id', 1);
    expect(data).toEqual([{ id: 1, stage: { name: 'done' }, stage_name: 'done', size: '3' }]);
  });

  it('filters on JSON paths', async () => {
    expect((await suite.db.from('dx_projects').select('id').eq('meta->stage->>name', 'active').order('id')).data).toEqual([{ id: 2 }, { id: 3 }]);
  });

  it('orders by a JSON path', async () => {
    const response = await suite.fx.request('viewer', '/dx_projects?select=id&order=meta->size.asc&id=lt.4');
    expect(await response.json()).toEqual([{ id: 3 }, { id: 2 }, { id: 1 }]);
  });
});
