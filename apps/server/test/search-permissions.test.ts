import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can, ROLES, type Resource } from '@opsdeck/shared';
import { resourceFor } from '../src/data-api/resource-map';
import { search, searchKindResource } from '../src/modules/search';
import { startTestServer, type TestServer } from './harness';
import { SEARCH_FIXTURE_SQL } from './search-fixture';

/**
 * Who sees what in GET /api/search (issue #19 item 3): each kind only for a caller who may read its resource, the
 * resource the data API guards the table with. Today every built-in role reads all five resources, so the route is
 * checked per role against `can()` and the filter itself with callers that lack a read.
 */

const KINDS = ['check', 'config', 'component', 'incident', 'playbook'] as const;

describe('search permissions', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
    await server.pool.query(SEARCH_FIXTURE_SQL);
  });
  afterAll(async () => {
    await server.close();
  });

  it("guards each kind with the data API's resource for its table", () => {
    expect(searchKindResource('check')).toBe(resourceFor('checks'));
    expect(searchKindResource('config')).toBe(resourceFor('config_items'));
    expect(searchKindResource('component')).toBe(resourceFor('components'));
    expect(searchKindResource('incident')).toBe(resourceFor('incidents'));
    expect(searchKindResource('playbook')).toBe(resourceFor('playbooks'));
    expect(KINDS.map((kind) => searchKindResource(kind))).toEqual(['canaries', 'database', 'topologies', 'incident', 'playbooks']);
  });

  it.each(ROLES)('shows the %s role exactly the kinds it may read', async (role) => {
    const reply = await server.call('GET', '/api/search?q=qzxgate&limit=50', await server.cookieFor(role));
    expect(reply.status, reply.text).toBe(200);
    const seen = new Set((reply.json.items as Array<{ kind: string }>).map((item) => item.kind));
    const readable = KINDS.filter((kind) => {
      const resource = searchKindResource(kind);
      return resource !== null && can([role], resource, 'read');
    });
    expect([...seen].sort()).toEqual([...readable].sort());
  });

  for (const hidden of ['incident', 'database', 'canaries', 'topologies', 'playbooks'] as const satisfies readonly Resource[]) {
    it(`never returns a row of a kind guarded by ${hidden} to a caller without read on it`, async () => {
      const asked: Resource[] = [];
      const found = await search(server.pool, {
        text: 'qzx',
        limit: 50,
        canRead: (resource) => {
          asked.push(resource);
          return resource !== hidden;
        },
      });
      expect(found.length).toBeGreaterThan(0);
      const leaked = found.filter((item) => searchKindResource(item.kind) === hidden);
      expect(leaked).toEqual([]);
      expect(asked).toContain(hidden);
    });
  }

  it('returns nothing at all to a caller who may read none of the kinds', async () => {
    expect(await search(server.pool, { text: 'qzxgate', limit: 50, canRead: () => false })).toEqual([]);
  });
});
