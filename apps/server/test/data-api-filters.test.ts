import { describe, expect, it } from 'vitest';
import { useDataApiSuite } from './data-api-fixture';

describe('data API filters', () => {
  const suite = useDataApiSuite('viewer');

  describe('operators', () => {
    it('filters with comparison operators', async () => {
      expect((await suite.db.from('dx_tasks').select('title').gt('priority', 1).order('id')).data).toEqual([{ title: 'Land' }, { title: 'Orbit' }]);
      expect((await suite.db.from('dx_tasks').select('title').gte('priority', 3)).data).toEqual([{ title: 'Orbit' }]);
      expect((await suite.db.from('dx_tasks').select('title').lt('priority', 2).order('id')).data).toEqual([{ title: 'Launch' }, { title: 'Dock' }]);
      expect((await suite.db.from('dx_tasks').select('title').lte('priority', 1).neq('title', 'Dock')).data).toEqual([{ title: 'Launch' }]);
    });

    it('filters with like, ilike, match and imatch using * as the wildcard', async () => {
      expect((await suite.db.from('dx_projects').select('name').like('name', '*ur*')).data).toEqual([{ name: 'Mercury' }]);
      expect((await suite.db.from('dx_projects').select('name').ilike('name', 'g*')).data).toEqual([{ name: 'Gemini' }]);
      expect((await suite.db.from('dx_projects').select('name').filter('name', 'match', '^Sky')).data).toEqual([{ name: 'Skylab' }]);
      expect((await suite.db.from('dx_projects').select('name').filter('name', 'imatch', '^apo')).data).toEqual([{ name: 'Apollo' }]);
    });

    it('filters with in lists, including quoted items holding commas', async () => {
      expect((await suite.db.from('dx_projects').select('id').in('name', ['Apollo', 'Skylab', 'a,b']).order('id')).data).toEqual([{ id: 1 }, { id: 4 }]);
    });

    it('filters with is null, not is null, is true and isdistinct', async () => {
      expect((await suite.db.from('dx_projects').select('id').is('client_id', null)).data).toEqual([{ id: 4 }]);
      expect((await suite.db.from('dx_projects').select('id').not('client_id', 'is', null).order('id')).data).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
      expect((await suite.db.from('dx_tasks').select('title').is('done', false).order('id')).data).toEqual([{ title: 'Return' }, { title: 'Dock' }]);
      expect((await suite.db.from('dx_tasks').select('title').filter('priority', 'isdistinct', '1').order('id')).data).toEqual([
        { title: 'Land' },
        { title: 'Return' },
        { title: 'Orbit' },
      ]);
    });

    it('filters arrays and JSON with cs, cd and ov', async () => {
      expect((await suite.db.from('dx_projects').select('id').contains('tags', ['moon'])).data).toEqual([{ id: 1 }]);
      expect((await suite.db.from('dx_projects').select('id').containedBy('tags', ['space']).order('id')).data).toEqual([{ id: 2 }, { id: 4 }]);
      expect((await suite.db.from('dx_projects').select('id').overlaps('tags', ['orbit', 'moon']).order('id')).data).toEqual([{ id: 1 }, { id: 3 }]);
      expect((await suite.db.from('dx_projects').select('id').contains('meta', { size: 2 })).data).toEqual([{ id: 2 }]);
    });
  });

  describe('full-text search', () => {
    it('filters with full-text search operators and an optional language', async () => {
      expect((await suite.db.from('dx_projects').select('id').textSearch('name', 'apollo')).data).toEqual([{ id: 1 }]);
      expect((await suite.db.from('dx_projects').select('id').textSearch('name', 'gemini', { type: 'plain', config: 'english' })).data).toEqual([{ id: 2 }]);
      expect((await suite.db.from('dx_projects').select('id').textSearch('name', 'mercury', { type: 'phrase' })).data).toEqual([{ id: 3 }]);
      expect((await suite.db.from('dx_projects').select('id').textSearch('name', 'skylab or apollo', { type: 'websearch' }).order('id')).data).toEqual([
        { id: 1 },
        { id: 4 },
      ]);
    });

    it('answers 400 with the tsquery error when a full-text query does not parse', async () => {
      const result = await suite.db.from('dx_projects').select('id').textSearch('name', '&', { config: 'english' });
      expect(result.status).toBe(400);
      expect(result.error).toMatchObject({ code: '42601', message: 'syntax error in tsquery: "&"' });
      const noOperand = await suite.db.from('dx_projects').select('id').textSearch('name', '*&');
      expect(noOperand.status).toBe(400);
      expect(noOperand.error).toMatchObject({ code: '42601', message: 'no operand in tsquery: "*&"' });
    });
  });

  describe('negation and quantifiers', () => {
    it('negates any operator with not.', async () => {
      expect((await suite.db.from('dx_projects').select('id').not('name', 'like', '*o*').order('id')).data).toEqual([{ id: 2 }, { id: 3 }, { id: 4 }]);
    });

    it('applies any and all modifiers to lists', async () => {
      const anyOf = await suite.fx.request('viewer', '/dx_projects?select=id&name=like(any).{Apo*,Sky*}&order=id');
      expect(await anyOf.json()).toEqual([{ id: 1 }, { id: 4 }]);
      const allOf = await suite.fx.request('viewer', '/dx_projects?select=id&name=like(all).{*e*,*y*}&order=id');
      expect(await allOf.json()).toEqual([{ id: 3 }]);
      const eqAny = await suite.fx.request('viewer', '/dx_projects?select=id&id=eq(any).{2,3}&order=id');
      expect(await eqAny.json()).toEqual([{ id: 2 }, { id: 3 }]);
    });
  });
});
