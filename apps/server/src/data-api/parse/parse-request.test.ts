import { describe, expect, it } from 'vitest';
import { errorCodeOf } from '../error-code-of';
import { parseInsertBody, parsePatchBody } from './body';
import { parseCallRequest, parseReadRequest, parseWriteRequest, type RawRequest } from './parse-request';

function raw(method: string, url: string, headers: RawRequest['headers'] = {}, body?: string): RawRequest {
  return { method, url, headers, body };
}

describe('parseReadRequest', () => {
  it('describes a read: its query, preferences, media type, range and whether it is a HEAD', () => {
    const request = parseReadRequest(
      raw('HEAD', '/api/db/tasks?select=id,title&done=is.true&order=id.desc&limit=5', { prefer: 'count=exact', accept: 'application/vnd.pgrst.object+json', range: '0-9' }),
      'tasks',
    );
    expect(request).toMatchObject({ kind: 'read', relation: 'tasks', head: true, media: 'object', range: { offset: 0, limit: 10 } });
    expect(request.prefs.count).toBe('exact');
    expect(request.query.select).toHaveLength(2);
    expect(request.query.modifiers.get('')).toMatchObject({ limit: 5, order: [{ descending: true }], filters: [{ operator: 'is', value: 'true' }] });
  });

  it('refuses a malformed query string, Accept or Range header with their own codes', () => {
    expect(errorCodeOf(() => parseReadRequest(raw('GET', '/api/db/tasks?id=zz.1'), 'tasks'))).toBe('400 PGRST100');
    expect(errorCodeOf(() => parseReadRequest(raw('GET', '/api/db/tasks', { accept: 'text/csv' }), 'tasks'))).toBe('406 PGRST107');
    expect(errorCodeOf(() => parseReadRequest(raw('GET', '/api/db/tasks', { range: 'x' }), 'tasks'))).toBe('416 PGRST103');
  });
});

describe('parseWriteRequest', () => {
  it('keeps the body unread, with the columns and on_conflict of the query string', () => {
    const request = parseWriteRequest(raw('POST', '/api/db/users?columns=id,name&on_conflict=name', { prefer: 'resolution=ignore-duplicates' }, '{"id":'), 'users', 'POST');
    expect(request).toMatchObject({ kind: 'write', method: 'POST', body: '{"id":' });
    expect(request.query.columns).toEqual(['id', 'name']);
    expect(request.query.onConflict).toEqual(['name']);
    expect(request.prefs.resolution).toBe('ignore-duplicates');
  });
});

describe('write bodies', () => {
  it('reads a POST body as rows, marking shapes other than an object or an array of objects', () => {
    expect(parseInsertBody('{"id":1}')).toEqual({ rows: [{ id: 1 }], wellFormed: true });
    expect(parseInsertBody('[{"id":1},{"id":2}]')).toEqual({ rows: [{ id: 1 }, { id: 2 }], wellFormed: true });
    expect(parseInsertBody('[{"id":1},5]')).toEqual({ rows: [{ id: 1 }], wellFormed: false });
    expect(parseInsertBody('')).toEqual({ rows: [], wellFormed: false });
    expect(parseInsertBody('"text"')).toEqual({ rows: [], wellFormed: false });
  });

  it('answers 400 PGRST102 for malformed JSON and for a PATCH body that is not an object', () => {
    expect(errorCodeOf(() => parseInsertBody('{"id":'))).toBe('400 PGRST102');
    expect(errorCodeOf(() => parsePatchBody('[{"id":1}]'))).toBe('400 PGRST102');
    expect(parsePatchBody('{"done":true}')).toEqual({ done: true });
  });
});

describe('parseCallRequest', () => {
  it('offers the query keys of a GET and parses the query only once the arguments are known', () => {
    const request = parseCallRequest(raw('GET', '/api/db/rpc/projects_of?client=1&select=name&name=neq.x'), 'projects_of');
    expect(request).toMatchObject({ kind: 'call', function: 'projects_of', readOnly: true, body: null });
    expect([...request.offered]).toEqual(['client', 'select', 'name']);
    const query = request.parseQueryFor(new Set(['client']));
    expect(query.args).toEqual(new Map([['client', '1']]));
    expect(query.modifiers.get('')?.filters).toMatchObject([{ field: { column: 'name' }, operator: 'neq', value: 'x' }]);
  });

  it('offers the body keys of a POST, and an empty body as no arguments', () => {
    const request = parseCallRequest(raw('POST', '/api/db/rpc/add', {}, '{"a":1,"b":2}'), 'add');
    expect(request).toMatchObject({ readOnly: false, body: { a: 1, b: 2 } });
    expect([...request.offered]).toEqual(['a', 'b']);
    expect(parseCallRequest(raw('POST', '/api/db/rpc/add', {}, ''), 'add').body).toEqual({});
    expect(errorCodeOf(() => parseCallRequest(raw('POST', '/api/db/rpc/add', {}, '[1]'), 'add'))).toBe('400 PGRST102');
  });

  it('reads the Range header only when asked, so a call that ignores it never fails on it', () => {
    const request = parseCallRequest(raw('GET', '/api/db/rpc/add?a=1', { range: 'nonsense' }), 'add');
    expect(errorCodeOf(() => request.parseRange())).toBe('416 PGRST103');
    expect(parseCallRequest(raw('GET', '/api/db/rpc/add', { range: '2-3' }), 'add').parseRange()).toEqual({ offset: 2, limit: 2 });
  });
});
