import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { errorCodeOf } from '../error-code-of';
import { parseCallRequest } from '../parse/parse-request';
import { SchemaCache, type DbFunction, type FunctionArg, type Relation } from '../schema-cache';
import { argumentNames, chooseOverload, planCall } from './plan-call';
import { aliasCounter } from './plan-read';

function fn(name: string, args: Array<Partial<FunctionArg> & { name: string }>, rest: Partial<DbFunction> = {}): DbFunction {
  return {
    name,
    args: args.map((arg) => ({ type: 'int', optional: false, ...arg })),
    returnsSet: false,
    rowRelation: null,
    returnsVoid: false,
    volatile: false,
    ...rest,
  };
}

const byId = fn('find', [{ name: 'id' }]);
const byName = fn('find', [{ name: 'name', type: 'text' }]);
const byNameAndTeam = fn('find', [{ name: 'name', type: 'text' }, { name: 'team', type: 'text', optional: true }]);
const overloads = [byId, byName, byNameAndTeam];

describe('chooseOverload', () => {
  it('picks the overload whose required arguments are all given', () => {
    expect(chooseOverload('find', overloads, new Set(['id']), true)).toBe(byId);
  });

  it('prefers the overload that takes the most of the given names, optional ones included', () => {
    expect(chooseOverload('find', overloads, new Set(['name', 'team']), true)).toBe(byNameAndTeam);
    expect(chooseOverload('find', [byNameAndTeam, byName], new Set(['name']), true)).toBe(byNameAndTeam);
  });

  it('refuses, for POST, an overload that would leave a given name unused', () => {
    expect(errorCodeOf(() => chooseOverload('find', overloads, new Set(['id', 'limit']), true))).toBe('404 PGRST202');
  });

  it('treats, for GET, the names no argument takes as filters on the result', () => {
    expect(chooseOverload('find', overloads, new Set(['id', 'select', 'title']), false)).toBe(byId);
  });

  it('answers 404 PGRST202 naming the function and the given names when nothing matches', () => {
    const choice = () => chooseOverload('find', overloads, new Set(['team']), true);
    expect(errorCodeOf(choice)).toBe('404 PGRST202');
    expect(choice).toThrow('Could not find the function public.find(team) in the schema cache');
    expect(errorCodeOf(() => chooseOverload('nope', [], new Set(), false))).toBe('404 PGRST202');
  });
});

const cache = new SchemaCache(new pg.Pool());
const ctx = { cache, authorize: () => undefined, nextAlias: aliasCounter() };

describe('planCall', () => {
  it('binds POST arguments by name, numbers as text and objects as JSON', () => {
    const target = fn('save', [{ name: 'id' }, { name: 'doc', type: 'jsonb' }], { volatile: true });
    const request = parseCallRequest({ method: 'POST', url: '/api/db/rpc/save', headers: {}, body: '{"id":7,"doc":{"a":1}}' }, 'save');
    const plan = planCall(ctx, target, request, request.parseQueryFor(argumentNames(target)));
    expect(plan).toMatchObject({ kind: 'value', returnsVoid: false });
    expect(plan.kind === 'value' ? plan.statement : null).toEqual({
      text: 'select to_json("public"."save"("id" => $1::int, "doc" => $2::jsonb))::text as body',
      values: ['7', '{"a":1}'],
    });
  });

  it('takes GET arguments from the query, leaving the other keys to filter the rows', () => {
    const rows: Relation = {
      name: 'projects',
      kind: 'table',
      columns: new Map([['name', { name: 'name', type: 'text', notNull: true, hasDefault: false, maxLength: 256 }]]),
      primaryKey: [],
      uniqueKeys: [],
      writable: { insert: true, update: true, delete: true },
      reads: [],
    };
    const target = fn('projects_of', [{ name: 'client' }], { returnsSet: true, rowRelation: rows });
    const request = parseCallRequest({ method: 'GET', url: '/api/db/rpc/projects_of?client=1&name=eq.Apollo', headers: {}, body: undefined }, 'projects_of');
    const plan = planCall(ctx, target, request, request.parseQueryFor(argumentNames(target)));
    expect(plan.kind).toBe('rows');
    const statement = plan.kind === 'rows' ? plan.page.statement : null;
    expect(statement?.text).toContain('from "public"."projects_of"("client" => $1::int)');
    expect(statement?.values.slice(0, 2)).toEqual(['1', 'Apollo']);
  });
});
