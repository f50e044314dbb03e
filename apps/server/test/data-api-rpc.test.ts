import { describe, expect, it } from 'vitest';
import { schemaCacheFor } from '../src/data-api/data-api-plugin';
import { useDataApiSuite } from './data-api-fixture';

describe('data API functions', () => {
  const suite = useDataApiSuite('editor');

  it('calls a scalar function with POST and returns its value', async () => {
    const { data, status } = await suite.db.rpc('dx_add', { a: 2, b: 3 });
    expect(status).toBe(200);
    expect(data).toBe(5);
  });

  it('calls a function with GET, taking arguments from the query string', async () => {
    const { data } = await suite.db.rpc('dx_add', { a: 40, b: 2 }, { get: true });
    expect(data).toBe(42);
  });

  it('treats set-returning functions as tables: select, filter, order, embed', async () => {
    const { data } = await suite.db.rpc('dx_projects_of', { client: 1 }, { get: true }).select('name,dx_tasks(title)').neq('id', 1).order('name');
    expect(data).toEqual([{ name: 'Gemini', dx_tasks: [{ title: 'Dock' }] }]);
  });

  it('answers 204 for a void function and applies its changes', async () => {
    const { status } = await suite.db.rpc('dx_rename', { project: 4, new_name: 'Skylab 2' });
    expect(status).toBe(204);
    expect((await suite.fx.server.pool.query('select name from dx_projects where id = 4')).rows).toEqual([{ name: 'Skylab 2' }]);
  });

  it('answers PGRST202 for an unknown function or unknown arguments', async () => {
    const missing = await suite.db.rpc('dx_nope', {});
    expect(missing.status).toBe(404);
    expect(missing.error?.code).toBe('PGRST202');
    const wrongArgs = await suite.db.rpc('dx_add', { a: 1, c: 2 });
    expect(wrongArgs.status).toBe(404);
    expect(wrongArgs.error?.code).toBe('PGRST202');
  });

  it('answers 400 with P0001 and the raised message for a RAISE EXCEPTION', async () => {
    const { status, error } = await suite.db.rpc('dx_fail');
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: 'P0001', message: 'refused on purpose', details: 'by the test' });
  });

  it('answers 400 when an argument does not fit its type', async () => {
    const { status, error } = await suite.db.rpc('dx_add', { a: 'x', b: 1 });
    expect(status).toBe(400);
    expect(error?.code).toBe('22P02');
  });

  it('needs write access to call a volatile function with POST', async () => {
    const viewer = await suite.fx.client('viewer');
    const { status, error } = await viewer.rpc('dx_rename', { project: 4, new_name: 'Nope' });
    expect(status).toBe(403);
    expect(error?.code).toBe('42501');
    expect((await viewer.rpc('dx_add', { a: 1, b: 1 })).data).toBe(2);
  });

  it('sees functions created later once the schema cache is reloaded', async () => {
    await suite.fx.server.pool.query(`create function dx_hello(name text) returns text language sql immutable as $$ select 'hi ' || name $$`);
    expect((await suite.db.rpc('dx_hello', { name: 'x' })).status).toBe(404);
    await schemaCacheFor(suite.fx.server.running.context.db)?.reload();
    expect((await suite.db.rpc('dx_hello', { name: 'Ann' })).data).toBe('hi Ann');
  });
});
