import { describe, expect, it } from 'vitest';
import { useDataApiSuite } from './data-api-fixture';

describe('data API counts and ranges', () => {
  const suite = useDataApiSuite('viewer');

  describe('reads', () => {
    it('answers with a JSON content type and a Content-Range header', async () => {
      const response = await suite.fx.request('viewer', '/dx_clients?select=id&order=id');
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('content-range')).toBe('0-2/*');
    });

    it('counts exactly with Prefer count=exact and answers 206 for a partial page', async () => {
      const { data, count, status } = await suite.db.from('dx_tasks').select('id', { count: 'exact' }).order('id').limit(2);
      expect(status).toBe(206);
      expect(count).toBe(5);
      expect(data).toEqual([{ id: 1 }, { id: 2 }]);
      const full = await suite.db.from('dx_tasks').select('id', { count: 'exact' });
      expect(full.status).toBe(200);
      expect(full.count).toBe(5);
    });

    it('gives planned and estimated counts', async () => {
      const planned = await suite.db.from('dx_tasks').select('id', { count: 'planned' }).limit(1);
      expect(typeof planned.count).toBe('number');
      const estimated = await suite.db.from('dx_tasks').select('id', { count: 'estimated' }).limit(1);
      expect(estimated.count).toBe(5);
    });

    it('answers HEAD with headers only, and the count', async () => {
      const { count, data, status } = await suite.db.from('dx_tasks').select('*', { count: 'exact', head: true });
      expect(status).toBe(200);
      expect(data).toBeNull();
      expect(count).toBe(5);
    });

    it('answers 416 PGRST103 when the offset is past the total', async () => {
      const response = await suite.fx.request('viewer', '/dx_tasks?offset=10', { headers: { Prefer: 'count=exact' } });
      expect(response.status).toBe(416);
      expect(await response.json()).toMatchObject({ code: 'PGRST103' });
    });

    it('answers 416 PGRST103 for a Range that ends before it starts', async () => {
      const response = await suite.fx.request('viewer', '/dx_tasks', { headers: { Range: '5-2' } });
      expect(response.status).toBe(416);
      expect((await response.json()) as { code: string }).toMatchObject({ code: 'PGRST103' });
    });
  });

  describe('writes', () => {
    it('answers 204 to an update without representation and reports the count', async () => {
      const { status, count } = await suite.editor.from('dx_tasks').update({ done: false }, { count: 'exact' }).eq('project_id', 1);
      expect(status).toBe(204);
      expect(count).toBe(3);
    });
  });
});
