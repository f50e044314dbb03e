import { describe, expect, it } from 'vitest';
import { useDataApiSuite } from './data-api-fixture';

/** `select`: columns, aliases, casts, and what it never shows (secret columns); views read like tables. */
describe('data API select', () => {
  const suite = useDataApiSuite('viewer');

  it('returns every visible column of every row for select=*', async () => {
    const { data, error, status } = await suite.db.from('dx_clients').select('*').order('id');
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toEqual([
      { id: 1, name: 'Acme' },
      { id: 2, name: 'Globex' },
      { id: 3, name: 'Initech' },
    ]);
  });

  it('renames columns with aliases and converts them with casts', async () => {
    const { data } = await suite.db.from('dx_projects').select('key:id,title:name,budget::text').eq('id', 1);
    expect(data).toEqual([{ key: 1, title: 'Apollo', budget: '100.5' }]);
  });

  it('never exposes secret columns, even through select=*', async () => {
    const { data } = await suite.db.from('dx_projects').select('*').eq('id', 1).single();
    expect(Object.keys(data as object).sort()).toEqual(['budget', 'client_id', 'created_on', 'id', 'meta', 'name', 'tags']);
  });

  it('treats a secret column as non-existent when selected or filtered', async () => {
    const selected = await suite.db.from('dx_projects').select('api_token_hash');
    expect(selected.status).toBe(400);
    expect(selected.error).toMatchObject({ code: '42703', message: 'column dx_projects.api_token_hash does not exist' });
    const filtered = await suite.db.from('dx_projects').select('id').eq('api_token_hash', 'secret-1');
    expect(filtered.status).toBe(400);
    expect(filtered.error?.code).toBe('42703');
  });

  it('reads views', async () => {
    const { data } = await suite.db.from('dx_projects_summary').select('name,tasks').order('id');
    expect(data).toEqual([
      { name: 'Apollo', tasks: 3 },
      { name: 'Gemini', tasks: 1 },
      { name: 'Mercury', tasks: 1 },
      { name: 'Skylab', tasks: 0 },
    ]);
  });
});
