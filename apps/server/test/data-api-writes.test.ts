import { describe, expect, it } from 'vitest';
import { useDataApiSuite } from './data-api-fixture';

/** Plain inserts, updates and deletes, and the errors writes answer. The tests run in order and share rows. */
describe('data API writes', () => {
  const suite = useDataApiSuite('editor');

  describe('inserts', () => {
    it('inserts one row and answers 201 with an empty body by default', async () => {
      const response = await suite.fx.request('editor', '/dx_users', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 10, name: 'Dee' }) });
      expect(response.status).toBe(201);
      expect(await response.text()).toBe('');
      expect((await suite.fx.server.pool.query('select name from dx_users where id = 10')).rows).toEqual([{ name: 'Dee' }]);
    });

    it('returns the inserted row with return=representation, through the select', async () => {
      const { data, status } = await suite.db.from('dx_tasks').insert({ project_id: 4, title: 'Plan' }).select('title,done,dx_projects(name)').single();
      expect(status).toBe(201);
      expect(data).toEqual({ title: 'Plan', done: false, dx_projects: { name: 'Skylab' } });
    });

    it('inserts in bulk with the columns parameter, leaving absent keys null', async () => {
      const { data, error } = await suite.db.from('dx_users').insert([{ id: 11, name: 'Eve' }, { id: 12, name: 'Fay' }]).select('id,name');
      expect(error).toBeNull();
      expect(data).toEqual([
        { id: 11, name: 'Eve' },
        { id: 12, name: 'Fay' },
      ]);
    });

    it('uses column defaults for absent keys with Prefer missing=default', async () => {
      const { data, error } = await suite.db
        .from('dx_tasks')
        .insert([{ project_id: 4, title: 'A', done: true }, { project_id: 4, title: 'B' }], { defaultToNull: false })
        .select('title,done');
      expect(error).toBeNull();
      expect(data).toEqual([
        { title: 'A', done: true },
        { title: 'B', done: false },
      ]);
    });

    it('sends a Location header for return=headers-only', async () => {
      const response = await suite.fx.request('editor', '/dx_users', {
        method: 'POST',
        headers: { 'content-type': 'application/json', prefer: 'return=headers-only' },
        body: JSON.stringify({ id: 30, name: 'Gus' }),
      });
      expect(response.status).toBe(201);
      expect(response.headers.get('location')).toBe('/dx_users?id=eq.30');
    });
  });

  describe('refused writes', () => {
    it('answers 409 with the database code for a duplicate key', async () => {
      const { error, status } = await suite.db.from('dx_users').insert({ id: 1, name: 'Dup' });
      expect(status).toBe(409);
      expect(error).toMatchObject({ code: '23505' });
    });

    it('answers 409 for a foreign key violation and 400 for a not-null violation', async () => {
      const fk = await suite.db.from('dx_tasks').insert({ project_id: 999, title: 'x' });
      expect(fk.status).toBe(409);
      expect(fk.error?.code).toBe('23503');
      const nn = await suite.db.from('dx_tasks').insert({ project_id: 1, title: null });
      expect(nn.status).toBe(400);
      expect(nn.error?.code).toBe('23502');
    });

    it('answers 400 when a value does not fit its column type', async () => {
      const bad = await suite.db.from('dx_tasks').insert({ project_id: 'one', title: 'x' });
      expect(bad.status).toBe(400);
      expect(bad.error?.code).toMatch(/^22/);
      const date = await suite.db.from('dx_projects').update({ created_on: 'not a date' }).eq('id', 1);
      expect(date.status).toBe(400);
      const filter = await suite.db.from('dx_projects').select('id').eq('id', 'abc');
      expect(filter.status).toBe(400);
      expect(filter.error?.code).toBe('22P02');
    });

    it('answers PGRST204 for a column that does not exist, or is secret', async () => {
      const unknown = await suite.db.from('dx_users').insert({ id: 20, nope: 1 });
      expect(unknown.status).toBe(400);
      expect(unknown.error).toMatchObject({ code: 'PGRST204', message: "Could not find the 'nope' column of 'dx_users' in the schema cache" });
      const secret = await suite.db.from('dx_projects').update({ api_token_hash: 'x' }).eq('id', 1);
      expect(secret.status).toBe(400);
      expect(secret.error?.code).toBe('PGRST204');
    });

    it('answers PGRST102 for malformed JSON', async () => {
      const response = await suite.fx.request('editor', '/dx_users', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":' });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'PGRST102' });
    });
  });

  describe('updates and deletes', () => {
    it('updates the filtered rows and returns them with return=representation', async () => {
      const { data, status } = await suite.db.from('dx_tasks').update({ priority: 9 }).eq('project_id', 3).select('title,priority');
      expect(status).toBe(200);
      expect(data).toEqual([{ title: 'Orbit', priority: 9 }]);
    });

    it('refuses PATCH and DELETE without a filter, changing nothing', async () => {
      const before = (await suite.fx.server.pool.query('select count(*)::int as n from dx_tasks')).rows[0] as { n: number };
      const update = await suite.fx.request('editor', '/dx_tasks', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"done":true}' });
      expect(update.status).toBe(400);
      expect(await update.json()).toMatchObject({ code: '21000', message: 'UPDATE requires a WHERE clause' });
      const remove = await suite.fx.request('editor', '/dx_tasks', { method: 'DELETE' });
      expect(remove.status).toBe(400);
      expect(await remove.json()).toMatchObject({ code: '21000', message: 'DELETE requires a WHERE clause' });
      const after = (await suite.fx.server.pool.query('select count(*)::int as n from dx_tasks')).rows[0] as { n: number };
      expect(after.n).toBe(before.n);
    });

    it('deletes the filtered rows and can return them', async () => {
      const { data, status } = await suite.db.from('dx_users').delete().in('id', [11, 12]).select('id').order('id');
      expect(status).toBe(200);
      expect(data).toEqual([{ id: 11 }, { id: 12 }]);
      const gone = await suite.db.from('dx_users').delete().eq('id', 10);
      expect(gone.status).toBe(204);
    });
  });
});
