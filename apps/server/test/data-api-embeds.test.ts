import { describe, expect, it } from 'vitest';
import { useDataApiSuite } from './data-api-fixture';

describe('data API embedding', () => {
  const suite = useDataApiSuite('viewer');

  describe('relationships', () => {
    it('embeds a to-one resource as an object, and null when there is none', async () => {
      const { data } = await suite.db.from('dx_projects').select('id,dx_clients(name)').in('id', [1, 4]).order('id');
      expect(data).toEqual([
        { id: 1, dx_clients: { name: 'Acme' } },
        { id: 4, dx_clients: null },
      ]);
    });

    it('embeds a to-one resource by its foreign-key column, with or without _id', async () => {
      const byColumn = await suite.db.from('dx_projects').select('id,client_id(name)').eq('id', 3);
      expect(byColumn.data).toEqual([{ id: 3, client_id: { name: 'Globex' } }]);
      const byName = await suite.db.from('dx_projects').select('id,client(name)').eq('id', 3);
      expect(byName.data).toEqual([{ id: 3, client: { name: 'Globex' } }]);
    });

    it('embeds a to-many resource as an array, and [] when empty', async () => {
      const { data } = await suite.db.from('dx_projects').select('id,dx_tasks(title)').in('id', [2, 4]).order('id');
      expect(data).toEqual([
        { id: 2, dx_tasks: [{ title: 'Dock' }] },
        { id: 4, dx_tasks: [] },
      ]);
    });

    it('renames embeds with an alias and picks the relationship by foreign-key name', async () => {
      const { data } = await suite.db.from('dx_projects').select('id,work:dx_tasks!dx_tasks_project_fk(title)').eq('id', 2);
      expect(data).toEqual([{ id: 2, work: [{ title: 'Dock' }] }]);
    });

    it('embeds many-to-many resources through a junction table', async () => {
      const { data } = await suite.db.from('dx_projects').select('id,dx_users(name)').in('id', [1, 2]).order('id');
      expect(data).toEqual([
        { id: 1, dx_users: [{ name: 'Ann' }, { name: 'Bob' }] },
        { id: 2, dx_users: [] },
      ]);
    });

    it('nests embeds several levels deep', async () => {
      const { data } = await suite.db.from('dx_clients').select('name,dx_projects(name,dx_tasks(title))').eq('id', 2);
      expect(data).toEqual([{ name: 'Globex', dx_projects: [{ name: 'Mercury', dx_tasks: [{ title: 'Orbit' }] }] }]);
    });

    it('embeds through the core tables, as the responder page does', async () => {
      const response = await suite.fx.request('viewer', '/team_members?select=team_id,person_id(name)&limit=1');
      expect(response.status).toBe(200);
      const [row] = (await response.json()) as Array<{ person_id: { name: string } }>;
      expect(typeof row?.person_id.name).toBe('string');
    });
  });

  describe('modifiers on embeds', () => {
    it('filters, orders and limits an embedded resource without dropping parents', async () => {
      const { data } = await suite.db
        .from('dx_projects')
        .select('id,dx_tasks(title)')
        .eq('dx_tasks.done', true)
        .order('title', { referencedTable: 'dx_tasks', ascending: false })
        .limit(1, { referencedTable: 'dx_tasks' })
        .in('id', [1, 2])
        .order('id');
      expect(data).toEqual([
        { id: 1, dx_tasks: [{ title: 'Launch' }] },
        { id: 2, dx_tasks: [] },
      ]);
    });

    it('drops parents without matching children for an !inner embed', async () => {
      const { data } = await suite.db.from('dx_projects').select('id,dx_clients!inner(name)').eq('dx_clients.name', 'Acme').order('id');
      expect(data).toEqual([
        { id: 1, dx_clients: { name: 'Acme' } },
        { id: 2, dx_clients: { name: 'Acme' } },
      ]);
    });

    it('filters parents on an embed being null or not null', async () => {
      const response = await suite.fx.request('viewer', '/dx_projects?select=id,dx_clients()&dx_clients=is.null');
      expect(await response.json()).toEqual([{ id: 4 }]);
    });
  });

  describe('errors', () => {
    it('answers PGRST200 for an embed with no relationship', async () => {
      const { error, status } = await suite.db.from('dx_clients').select('id,dx_users(name)');
      expect(status).toBe(400);
      expect(error).toMatchObject({ code: 'PGRST200' });
    });

    it('answers PGRST108 for a filter on a resource that is not embedded', async () => {
      const { error, status } = await suite.db.from('dx_projects').select('id').eq('dx_tasks.done', true);
      expect(status).toBe(400);
      expect(error).toMatchObject({ code: 'PGRST108' });
    });

    it('refuses embedding nested deeper than eight levels', async () => {
      const select = `id,${'dx_projects(dx_clients('.repeat(5)}name${'))'.repeat(5)}`;
      const response = await suite.fx.request('viewer', `/dx_clients?select=${encodeURIComponent(select)}`);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'PGRST100' });
    });
  });
});
