import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostgrestClient } from '@supabase/postgrest-js';
import { startDataApiFixture, type DataApiFixture } from './data-api-fixture';

describe('data API reads', () => {
  let fx: DataApiFixture;
  let db: PostgrestClient;
  beforeAll(async () => {
    fx = await startDataApiFixture();
    db = await fx.client('viewer');
  });
  afterAll(async () => {
    await fx.close();
  });

  it('returns every visible column of every row for select=*', async () => {
    const { data, error, status } = await db.from('dx_clients').select('*').order('id');
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toEqual([
      { id: 1, name: 'Acme' },
      { id: 2, name: 'Globex' },
      { id: 3, name: 'Initech' },
    ]);
  });

  it('answers with a JSON content type and a Content-Range header', async () => {
    const response = await fx.request('viewer', '/dx_clients?select=id&order=id');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('content-range')).toBe('0-2/*');
  });

  it('renames columns with aliases and converts them with casts', async () => {
    const { data } = await db.from('dx_projects').select('key:id,title:name,budget::text').eq('id', 1);
    expect(data).toEqual([{ key: 1, title: 'Apollo', budget: '100.5' }]);
  });

  it('reads JSON paths with -> and ->> and names them after the last key', async () => {
    const { data } = await db.from('dx_projects').select('id,meta->stage,stage_name:meta->stage->>name,meta->>size').eq('id', 1);
    expect(data).toEqual([{ id: 1, stage: { name: 'done' }, stage_name: 'done', size: '3' }]);
  });

  it('never exposes secret columns, even through select=*', async () => {
    const { data } = await db.from('dx_projects').select('*').eq('id', 1).single();
    expect(Object.keys(data as object).sort()).toEqual(['budget', 'client_id', 'created_on', 'id', 'meta', 'name', 'tags']);
  });

  it('treats a secret column as non-existent when selected or filtered', async () => {
    const selected = await db.from('dx_projects').select('api_token_hash');
    expect(selected.status).toBe(400);
    expect(selected.error).toMatchObject({ code: '42703', message: 'column dx_projects.api_token_hash does not exist' });
    const filtered = await db.from('dx_projects').select('id').eq('api_token_hash', 'secret-1');
    expect(filtered.status).toBe(400);
    expect(filtered.error?.code).toBe('42703');
  });

  it('filters with comparison operators', async () => {
    expect((await db.from('dx_tasks').select('title').gt('priority', 1).order('id')).data).toEqual([{ title: 'Land' }, { title: 'Orbit' }]);
    expect((await db.from('dx_tasks').select('title').gte('priority', 3)).data).toEqual([{ title: 'Orbit' }]);
    expect((await db.from('dx_tasks').select('title').lt('priority', 2).order('id')).data).toEqual([{ title: 'Launch' }, { title: 'Dock' }]);
    expect((await db.from('dx_tasks').select('title').lte('priority', 1).neq('title', 'Dock')).data).toEqual([{ title: 'Launch' }]);
  });

  it('filters with like, ilike, match and imatch using * as the wildcard', async () => {
    expect((await db.from('dx_projects').select('name').like('name', '*ur*')).data).toEqual([{ name: 'Mercury' }]);
    expect((await db.from('dx_projects').select('name').ilike('name', 'g*')).data).toEqual([{ name: 'Gemini' }]);
    expect((await db.from('dx_projects').select('name').filter('name', 'match', '^Sky')).data).toEqual([{ name: 'Skylab' }]);
    expect((await db.from('dx_projects').select('name').filter('name', 'imatch', '^apo')).data).toEqual([{ name: 'Apollo' }]);
  });

  it('filters with in lists, including quoted items holding commas', async () => {
    expect((await db.from('dx_projects').select('id').in('name', ['Apollo', 'Skylab', 'a,b']).order('id')).data).toEqual([{ id: 1 }, { id: 4 }]);
  });

  it('filters with is null, not is null, is true and isdistinct', async () => {
    expect((await db.from('dx_projects').select('id').is('client_id', null)).data).toEqual([{ id: 4 }]);
    expect((await db.from('dx_projects').select('id').not('client_id', 'is', null).order('id')).data).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect((await db.from('dx_tasks').select('title').is('done', false).order('id')).data).toEqual([{ title: 'Return' }, { title: 'Dock' }]);
    expect((await db.from('dx_tasks').select('title').filter('priority', 'isdistinct', '1').order('id')).data).toEqual([
      { title: 'Land' },
      { title: 'Return' },
      { title: 'Orbit' },
    ]);
  });

  it('filters arrays and JSON with cs, cd and ov', async () => {
    expect((await db.from('dx_projects').select('id').contains('tags', ['moon'])).data).toEqual([{ id: 1 }]);
    expect((await db.from('dx_projects').select('id').containedBy('tags', ['space']).order('id')).data).toEqual([{ id: 2 }, { id: 4 }]);
    expect((await db.from('dx_projects').select('id').overlaps('tags', ['orbit', 'moon']).order('id')).data).toEqual([{ id: 1 }, { id: 3 }]);
    expect((await db.from('dx_projects').select('id').contains('meta', { size: 2 })).data).toEqual([{ id: 2 }]);
  });

  it('filters with full-text search operators and an optional language', async () => {
    expect((await db.from('dx_projects').select('id').textSearch('name', 'apollo')).data).toEqual([{ id: 1 }]);
    expect((await db.from('dx_projects').select('id').textSearch('name', 'gemini', { type: 'plain', config: 'english' })).data).toEqual([{ id: 2 }]);
    expect((await db.from('dx_projects').select('id').textSearch('name', 'mercury', { type: 'phrase' })).data).toEqual([{ id: 3 }]);
    expect((await db.from('dx_projects').select('id').textSearch('name', 'skylab or apollo', { type: 'websearch' }).order('id')).data).toEqual([
      { id: 1 },
      { id: 4 },
    ]);
  });

  it('answers 400 with the tsquery error when a full-text query does not parse', async () => {
    const result = await db.from('dx_projects').select('id').textSearch('name', '&', { config: 'english' });
    expect(result.status).toBe(400);
    expect(result.error).toMatchObject({ code: '42601', message: 'syntax error in tsquery: "&"' });
    const noOperand = await db.from('dx_projects').select('id').textSearch('name', '*&');
    expect(noOperand.status).toBe(400);
    expect(noOperand.error).toMatchObject({ code: '42601', message: 'no operand in tsquery: "*&"' });
  });

  it('negates any operator with not.', async () => {
    expect((await db.from('dx_projects').select('id').not('name', 'like', '*o*').order('id')).data).toEqual([{ id: 2 }, { id: 3 }, { id: 4 }]);
  });

  it('applies any and all modifiers to lists', async () => {
    const anyOf = await fx.request('viewer', '/dx_projects?select=id&name=like(any).{Apo*,Sky*}&order=id');
    expect(await anyOf.json()).toEqual([{ id: 1 }, { id: 4 }]);
    const allOf = await fx.request('viewer', '/dx_projects?select=id&name=like(all).{*e*,*y*}&order=id');
    expect(await allOf.json()).toEqual([{ id: 3 }]);
    const eqAny = await fx.request('viewer', '/dx_projects?select=id&id=eq(any).{2,3}&order=id');
    expect(await eqAny.json()).toEqual([{ id: 2 }, { id: 3 }]);
  });

  it('combines filters with nested or and and groups, negated too', async () => {
    const { data } = await db.from('dx_tasks').select('title').or('priority.gt.2,and(done.is.false,priority.is.null)').order('id');
    expect(data).toEqual([{ title: 'Return' }, { title: 'Orbit' }]);
    const negated = await fx.request('viewer', '/dx_tasks?select=title&not.or=(done.is.true,priority.is.null)');
    expect(await negated.json()).toEqual([{ title: 'Dock' }]);
  });

  it('filters on JSON paths', async () => {
    expect((await db.from('dx_projects').select('id').eq('meta->stage->>name', 'active').order('id')).data).toEqual([{ id: 2 }, { id: 3 }]);
  });

  it('orders by several columns with nullsfirst and nullslast', async () => {
    const first = await db.from('dx_tasks').select('title').order('priority', { ascending: false, nullsFirst: true }).order('id');
    expect(first.data?.map((row) => row.title)).toEqual(['Return', 'Orbit', 'Land', 'Launch', 'Dock']);
    const last = await db.from('dx_tasks').select('title').order('priority', { ascending: true, nullsFirst: false }).order('id');
    expect(last.data?.map((row) => row.title)).toEqual(['Launch', 'Dock', 'Land', 'Orbit', 'Return']);
  });

  it('pages with limit and offset and reports the window in Content-Range', async () => {
    const { data } = await db.from('dx_tasks').select('id').order('id').range(1, 2);
    expect(data).toEqual([{ id: 2 }, { id: 3 }]);
    const response = await fx.request('viewer', '/dx_tasks?select=id&order=id&limit=2&offset=1');
    expect(response.headers.get('content-range')).toBe('1-2/*');
  });

  it('honours the Range header', async () => {
    const response = await fx.request('viewer', '/dx_tasks?select=id&order=id', { headers: { Range: '3-9', 'Range-Unit': 'items' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([{ id: 4 }, { id: 5 }]);
    expect(response.headers.get('content-range')).toBe('3-4/*');
  });

  it('counts exactly with Prefer count=exact and answers 206 for a partial page', async () => {
    const { data, count, status } = await db.from('dx_tasks').select('id', { count: 'exact' }).order('id').limit(2);
    expect(status).toBe(206);
    expect(count).toBe(5);
    expect(data).toEqual([{ id: 1 }, { id: 2 }]);
    const full = await db.from('dx_tasks').select('id', { count: 'exact' });
    expect(full.status).toBe(200);
    expect(full.count).toBe(5);
  });

  it('gives planned and estimated counts', async () => {
    const planned = await db.from('dx_tasks').select('id', { count: 'planned' }).limit(1);
    expect(typeof planned.count).toBe('number');
    const estimated = await db.from('dx_tasks').select('id', { count: 'estimated' }).limit(1);
    expect(estimated.count).toBe(5);
  });

  it('answers HEAD with headers only, and the count', async () => {
    const { count, data, status } = await db.from('dx_tasks').select('*', { count: 'exact', head: true });
    expect(status).toBe(200);
    expect(data).toBeNull();
    expect(count).toBe(5);
  });

  it('answers 416 PGRST103 when the offset is past the total', async () => {
    const response = await fx.request('viewer', '/dx_tasks?offset=10', { headers: { Prefer: 'count=exact' } });
    expect(response.status).toBe(416);
    expect(await response.json()).toMatchObject({ code: 'PGRST103' });
  });

  it('answers 416 PGRST103 for a Range that ends before it starts', async () => {
    const response = await fx.request('viewer', '/dx_tasks', { headers: { Range: '5-2' } });
    expect(response.status).toBe(416);
    expect((await response.json()) as { code: string }).toMatchObject({ code: 'PGRST103' });
  });

  it('returns one object for the singular media type and PGRST116 otherwise', async () => {
    const one = await db.from('dx_clients').select('name').eq('id', 2).single();
    expect(one.data).toEqual({ name: 'Globex' });
    const many = await db.from('dx_clients').select('name').single();
    expect(many.status).toBe(406);
    expect(many.error).toMatchObject({ code: 'PGRST116' });
    const none = await db.from('dx_clients').select('name').eq('id', 99).maybeSingle();
    expect(none.data).toBeNull();
    expect(none.error).toBeNull();
  });

  it('reads views', async () => {
    const { data } = await db.from('dx_projects_summary').select('name,tasks').order('id');
    expect(data).toEqual([
      { name: 'Apollo', tasks: 3 },
      { name: 'Gemini', tasks: 1 },
      { name: 'Mercury', tasks: 1 },
      { name: 'Skylab', tasks: 0 },
    ]);
  });
});
