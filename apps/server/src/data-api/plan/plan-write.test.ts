import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { errorCodeOf } from '../error-code-of';
import { parseWriteRequest } from '../parse/parse-request';
import { SchemaCache, type Relation } from '../schema-cache';
import { aliasCounter, planSelection } from './plan-read';
import { planInsert, planUpdate, writeRefusal } from './plan-write';

function relation(name: string, columns: string[], primaryKey: string[], writable = { insert: true, update: true, delete: true }): Relation {
  return {
    name,
    kind: 'table',
    columns: new Map(columns.map((column) => [column, { name: column, type: 'text', notNull: false, hasDefault: false, maxLength: 256 }])),
    primaryKey,
    uniqueKeys: [],
    writable,
    reads: [],
  };
}

const users = relation('users', ['id', 'name', 'team'], ['id']);
const events = relation('events', ['at', 'what'], []);
// The pool is never connected: planning reads only the relations set here.
const cache = new SchemaCache(new pg.Pool());
cache.relations.set(users.name, users);
cache.relations.set(events.name, events);

function insert(target: Relation, query: string, prefer: string, rows: Array<Record<string, unknown>> | null) {
  const request = parseWriteRequest({ method: 'POST', url: `/api/db/${target.name}?${query}`, headers: { prefer }, body: undefined }, target.name, 'POST');
  const root = planSelection({ cache, authorize: () => undefined, nextAlias: aliasCounter() }, target, request.query);
  return planInsert(target, root, request, rows);
}

describe('planInsert', () => {
  it('inserts the union of the rows keys, or only the columns the columns parameter names', () => {
    const union = insert(users, '', '', [{ id: 1 }, { name: 'Ann' }]);
    expect(union.statement.text).toContain('insert into "public"."users" ("id", "name") select "id", "name" from json_populate_recordset');
    const named = insert(users, 'columns=name', '', [{ id: 1, name: 'Ann' }]);
    expect(named.statement.text).toContain('insert into "public"."users" ("name") select "name"');
  });

  it('merges duplicates on the primary key by updating every other inserted column', () => {
    const plan = insert(users, '', 'resolution=merge-duplicates', [{ id: 1, name: 'Ann', team: 'red' }]);
    expect(plan.statement.text).toContain('on conflict ("id") do update set "name" = excluded."name", "team" = excluded."team" returning *');
  });

  it('skips duplicates with ignore-duplicates, and when every inserted column is a conflict key', () => {
    expect(insert(users, '', 'resolution=ignore-duplicates', [{ id: 1, name: 'Ann' }]).statement.text).toContain('on conflict ("id") do nothing');
    expect(insert(users, '', 'resolution=merge-duplicates', [{ id: 1 }]).statement.text).toContain('on conflict ("id") do nothing');
  });

  it('takes the conflict columns from on_conflict instead of the primary key', () => {
    const plan = insert(users, 'on_conflict=name,team', 'resolution=merge-duplicates', [{ id: 1, name: 'Ann', team: 'red' }]);
    expect(plan.statement.text).toContain('on conflict ("name", "team") do update set "id" = excluded."id" returning *');
  });

  it('refuses an upsert without conflict columns, and conflict or written columns the relation lacks', () => {
    expect(errorCodeOf(() => insert(events, '', 'resolution=merge-duplicates', [{ what: 'x' }]))).toBe('400 PGRST100');
    expect(errorCodeOf(() => insert(users, 'on_conflict=email', 'resolution=merge-duplicates', [{ id: 1 }]))).toBe('400 PGRST204');
    expect(errorCodeOf(() => insert(users, '', '', [{ id: 1, email: 'a@b' }]))).toBe('400 PGRST204');
  });

  it('ignores on_conflict without a resolution preference', () => {
    expect(insert(users, 'on_conflict=name', '', [{ id: 1 }]).statement.text).not.toContain('on conflict');
  });

  it('refuses a body that is not an object or an array of objects, and writes nothing for an empty array', () => {
    expect(errorCodeOf(() => insert(users, '', '', null))).toBe('400 PGRST102');
    expect(insert(users, '', '', []).statement.text).toContain('with _m as (select * from "public"."users" where false)');
  });

  it('wants exactly one row back for the singular media type', () => {
    const request = parseWriteRequest(
      { method: 'PATCH', url: '/api/db/users?id=eq.1', headers: { accept: 'application/vnd.pgrst.object+json' }, body: undefined },
      'users',
      'PATCH',
    );
    const root = planSelection({ cache, authorize: () => undefined, nextAlias: aliasCounter() }, users, request.query);
    const plan = planUpdate(users, root, request, { name: 'Bo' });
    expect(plan.exactlyOne).toBe(true);
    expect(plan.statement.values).toContain('1');
  });
});

describe('writeRefusal', () => {
  it('refuses a merging upsert on a relation that takes inserts but not updates, with 405 PGRST117', () => {
    const insertOnly = relation('log', ['id'], ['id'], { insert: true, update: false, delete: false });
    expect(writeRefusal(insertOnly, 'POST', false)).toBeNull();
    expect(writeRefusal(insertOnly, 'POST', true)).toMatchObject({ statusCode: 405, code: 'PGRST117' });
  });
});
