import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TEXT_LIMITS } from '@opsdeck/shared';
import { schemaCacheFor } from '../../src/data-api/data-api-plugin';
import { resourceFor } from '../../src/data-api/resource-map';
import { fuzzRuns } from '../fuzz-seed';
import { startTestServer, type TestServer } from '../harness';

/** One text column of a demo row that the admin may PATCH through the data API. */
interface Target {
  table: string;
  key: string;
  id: string;
  column: string;
  limit: number;
}

const quoted = (identifier: string): string => `"${identifier.replaceAll('"', '""')}"`;

/** Text of `length` characters drawn from four bytes' worth of UTF-8 at most, all outside the BMP when `wide`. */
function text(length: number, wide: boolean): string {
  return (wide ? '\u{1F600}' : 'é').repeat(length);
}

describe('text limits: every writable text column refuses what is too long with a 4xx, before the database sees it', () => {
  let server: TestServer;
  let admin: string;
  const targets: Target[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    const cache = schemaCacheFor(server.running.context.db);
    if (cache === undefined) throw new Error('the data API has no schema cache');
    for (const relation of cache.relations.values()) {
      const [key, ...more] = relation.primaryKey;
      if (relation.kind !== 'table' || !relation.writable.update || resourceFor(relation.name) === null || key === undefined || more.length > 0) continue;
      const row = await server.pool.query<{ id: string }>(`select ${quoted(key)}::text as id from ${quoted(relation.name)} limit 1`);
      const id = row.rows[0]?.id;
      if (id === undefined) continue;
      for (const column of relation.columns.values()) {
        if (column.maxLength !== null && column.name !== key && !column.type.endsWith('[]')) {
          targets.push({ table: relation.name, key, id, column: column.name, limit: column.maxLength });
        }
      }
    }
  }, 120_000);

  afterAll(async () => {
    await server.close();
  });

  const patch = (target: Target, value: string) =>
    server.call('PATCH', `/api/db/${target.table}?${target.key}=eq.${encodeURIComponent(target.id)}`, admin, { [target.column]: value });

  const stored = async (target: Target): Promise<string | null> => {
    const result = await server.pool.query<{ value: string | null }>(
      `select ${quoted(target.column)}::text as value from ${quoted(target.table)} where ${quoted(target.key)}::text = $1`,
      [target.id],
    );
    return result.rows[0]?.value ?? null;
  };

  it('finds demo rows to write in the tables an SRE edits', () => {
    const tables = new Set(targets.map((target) => target.table));
    for (const table of ['incidents', 'hypotheses', 'comments', 'teams', 'playbooks', 'notifications', 'connections', 'config_items']) expect(tables, table).toContain(table);
    expect(targets.length).toBeGreaterThan(100);
  });

  it('refuses a value one character over each column limit with 400 22001 naming the column, and leaves the row as it was', async () => {
    for (const target of targets) {
      const before = await stored(target);
      const reply = await patch(target, text(target.limit + 1, true));
      expect(reply.status, `${target.table}.${target.column}`).toBe(400);
      expect(reply.json, `${target.table}.${target.column}`).toMatchObject({ code: '22001' });
      expect(String(reply.json.message)).toContain(`${target.table}.${target.column}: ${target.limit + 1} characters, at most ${target.limit}`);
      expect(await stored(target), `${target.table}.${target.column}`).toBe(before);
    }
  }, 300_000);

  it('answers random text of any length, up to and past each limit, with 2xx or 4xx and never a 5xx', async () => {
    const lengthFor = (limit: number) => fc.oneof(fc.integer({ min: 0, max: 64 }), fc.integer({ min: limit - 8, max: limit + 8 }), fc.integer({ min: limit, max: limit + 1000 }));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...targets).chain((target) =>
          fc.tuple(fc.constant(target), lengthFor(target.limit).chain((length) => fc.string({ unit: 'binary', minLength: Math.max(length, 0), maxLength: Math.max(length, 0) }))),
        ),
        async ([target, value]) => {
          const reply = await patch(target, value);
          expect(reply.status, `${target.table}.${target.column} (${value.length} UTF-16 units): ${reply.text.slice(0, 200)}`).toBeLessThan(500);
          if ([...value].length > target.limit) expect(reply.status).toBe(400);
        },
      ),
      fuzzRuns(120),
    );
  }, 300_000);

  it('refuses an incident title of 40,000 characters, and of 3,000 random ones, on both write paths, and takes 256 four-byte characters', async () => {
    const create = (title: string) => server.call('POST', '/api/db/incidents', admin, { title, type: 'availability', severity: 'low', status: 'open' });
    for (const title of ['x'.repeat(40_000), fc.sample(fc.string({ unit: 'binary', minLength: 3000, maxLength: 3000 }), { numRuns: 1, seed: 7 })[0] ?? '']) {
      expect((await create(title)).json).toMatchObject({ code: '22001' });
      const command = await server.call('POST', '/api/incidents', admin, { title, type: 'availability', severity: 'low', status: 'open' });
      expect(command.status).toBe(400);
    }
    expect((await create(text(TEXT_LIMITS.short, true))).status).toBe(201);
  });

  it('builds the search pieces of a name from its first 320 characters, so their cost does not grow with the name', async () => {
    const pieces = async (name: string) =>
      (await server.pool.query<{ grams: string[] }>('select search_name_grams($1) as grams', [name])).rows[0]?.grams ?? [];
    const long = `${'ab'.repeat(160)}${'xyz'.repeat(30_000)}`;
    const grams = await pieces(long);
    expect(grams).not.toContain('xyz');
    expect(grams).toEqual(await pieces(long.slice(0, 320)));
  });

  it('gives every 1-, 2- and 3-character piece of the lower-cased name as the search pieces, and none for no name', async () => {
    const pieces = async (name: string | null) =>
      new Set((await server.pool.query<{ grams: string[] }>('select search_name_grams($1) as grams', [name])).rows[0]?.grams ?? ['missing']);
    expect(await pieces('AbcA')).toEqual(new Set(['a', 'b', 'c', 'ab', 'bc', 'ca', 'abc', 'bca']));
    expect(await pieces('éX')).toEqual(new Set(['é', 'x', 'éx']));
    expect(await pieces('')).toEqual(new Set());
    expect(await pieces(null)).toEqual(new Set());
  });
});
