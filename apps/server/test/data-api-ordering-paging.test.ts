import { describe, expect, it } from 'vitest';
import { useDataApiSuite } from './data-api-fixture';

describe('data API ordering and paging', () => {
  const suite = useDataApiSuite('viewer');

  describe('order', () => {
    it('orders by several columns with nullsfirst and nullslast', async () => {
      const first = await suite.db.from('dx_tasks').select('title').order('priority', { ascending: false, nullsFirst: true }).order('id');
      expect(first.data?.map((row) => row.title)).toEqual(['Return', 'Orbit', 'Land', 'Launch', 'Dock']);
      const last = await suite.db.from('dx_tasks').select('title').order('priority', { ascending: true, nullsFirst: false }).order('id');
      expect(last.data?.map((row) => row.title)).toEqual(['Launch', 'Dock', 'Land', 'Orbit', 'Return']);
    });

    it('orders parents by a column of a to-one embed', async () => {
      const response = await suite.fx.request('viewer', '/dx_projects?select=id,dx_clients(name)&order=dx_clients(name).desc.nullslast,id&id=lt.4');
      expect(((await response.json()) as Array<{ id: number }>).map((row) => row.id)).toEqual([3, 1, 2]);
    });
  });

  describe('paging', () => {
    it('pages with limit and offset and reports the window in Content-Range', async () => {
      const { data } = await suite.db.from('dx_tasks').select('id').order('id').range(1, 2);
      expect(data).toEqual([{ id: 2 }, { id: 3 }]);
      const response = await suite.fx.request('viewer', '/dx_tasks?select=id&order=id&limit=2&offset=1');
      expect(response.headers.get('content-range')).toBe('1-2/*');
    });

    it('honours the Range header', async () => {
      const response = await suite.fx.request('viewer', '/dx_tasks?select=id&order=id', { headers: { Range: '3-9', 'Range-Unit': 'items' } });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual([{ id: 4 }, { id: 5 }]);
      expect(response.headers.get('content-range')).toBe('3-4/*');
    });
  });
});
