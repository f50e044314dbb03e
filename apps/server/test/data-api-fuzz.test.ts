import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fuzzRuns } from './fuzz-seed';
import type { FastifyInstance } from 'fastify';
import { startDataApiFixture, type DataApiFixture } from './data-api-fixture';
import { schemaCacheFor } from '../src/data-api/data-api-plugin';
import { JSON_DEPTH_LIMIT } from '../src/platform/json-depth';

const COLUMNS = ['id', 'title', 'done', 'priority', 'project_id', 'nope', 'api_token_hash', 'meta->a', 'title->>x', '"id"', ''];
const EMBEDS = ['dx_projects', 'dx_clients', 'project_id', 'dx_users', 'sessions', 'nope', 'dx_projects!inner', 'dx_projects!dx_tasks_project_fk'];
const OPERATORS = ['eq', 'neq', 'gt', 'lt', 'like', 'ilike', 'match', 'in', 'is', 'isdistinct', 'cs', 'cd', 'ov', 'fts', 'wfts', 'eq(any)', 'like(all)', 'fts(english)', 'zz', 'not.eq', 'not.in'];
const VALUES = ['1', '-1', 'abc', 'null', 'true', '(1,2)', '("a,b",c)', '{1,2}', '{', ')', "'; drop table dx_tasks; --", '\\', '"', '%', '*', '1e999', '2024-13-45', '[1,5)', 'ö', '\u0000'];
const RESERVED = ['select', 'order', 'limit', 'offset', 'or', 'and', 'not.or', 'columns', 'on_conflict', 'dx_projects.limit', 'dx_projects.order', 'dx_projects.or'];

const piece = fc.oneof(fc.constantFrom(...COLUMNS), fc.constantFrom(...EMBEDS), fc.constantFrom(...OPERATORS), fc.constantFrom(...VALUES), fc.string({ maxLength: 6 }));
const joined = fc.array(fc.tuple(piece, fc.constantFrom('.', ',', '(', ')', ':', '::', '!', '->', '')), { maxLength: 6 }).map((parts) => parts.map(([a, b]) => a + b).join(''));

const selectValue = fc.oneof(
  joined,
  fc.array(fc.oneof(fc.constantFrom(...COLUMNS), fc.constantFrom(...EMBEDS).map((e) => `${e}(${'id'})`), joined), { maxLength: 4 }).map((items) => items.join(',')),
);
const filterValue = fc.tuple(fc.constantFrom(...OPERATORS), fc.oneof(fc.constantFrom(...VALUES), fc.string({ maxLength: 8 }))).map(([op, value]) => `${op}.${value}`);
const logicValue = fc.array(fc.oneof(fc.tuple(fc.constantFrom(...COLUMNS), filterValue).map(([c, f]) => `${c}.${f}`), joined), { maxLength: 4 }).map((items) => `(${items.join(',')})`);

const param = fc.oneof(
  selectValue.map((value) => ['select', value] as const),
  fc.tuple(fc.constantFrom(...COLUMNS, 'dx_projects.id', 'dx_projects.name'), fc.oneof(filterValue, joined)),
  fc.tuple(fc.constantFrom('or', 'and', 'not.or', 'dx_projects.or'), fc.oneof(logicValue, joined)),
  fc.tuple(fc.constantFrom(...RESERVED), fc.oneof(joined, fc.constantFrom('-1', '1', 'id.desc.nullslast', 'x.y', '99999999999999999999'))),
  fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 12 })),
);

const queryString = fc.array(param, { maxLength: 5 }).map((params) => {
  const search = new URLSearchParams();
  for (const [key, value] of params) search.append(key, value);
  return search.toString();
});

const bodyValue = fc.oneof(
  fc.json({ maxDepth: 2 }),
  fc.string({ maxLength: 20 }),
  fc.record({ title: fc.oneof(fc.string(), fc.integer(), fc.constant(null)), priority: fc.oneof(fc.integer(), fc.string(), fc.double()), project_id: fc.oneof(fc.integer(), fc.string()) }, { requiredKeys: [] }).map((value) => JSON.stringify(value)),
  fc.array(fc.dictionary(fc.constantFrom(...COLUMNS), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }), { maxLength: 3 }).map((value) => JSON.stringify(value)),
);

/** Arrays and objects nested `depth` levels, the innermost holding a leaf; the shape varies with `seed`. */
function nestedJson(depth: number, seed: number): string {
  let text = seed % 2 === 0 ? '1' : '"leaf"';
  for (let level = 0; level < depth; level += 1) text = (seed + level) % 3 === 0 ? `{"k":${text}}` : `[${text}]`;
  return text;
}

const depth = fc.oneof(fc.integer({ min: 1, max: JSON_DEPTH_LIMIT + 2 }), fc.integer({ min: JSON_DEPTH_LIMIT - 2, max: 6000 }));

const FORBIDDEN_TEXT = [/\bselect\b.*\bfrom\b/i, /\$[0-9]+::/, /syntax error at or near/i, /\bat .+\.(ts|js):\d+/, /node_modules/];

interface Outcome {
  status: number;
  body: string;
  /** What the request itself carried: a parse error may quote it back, whole or a fragment of it, which is not a leak. */
  sent: string[];
}

function checkOutcome(outcome: Outcome): void {
  expect(outcome.status).toBeLessThan(500);
  if (outcome.status >= 400) {
    const parsed = JSON.parse(outcome.body) as { code?: unknown; message?: unknown; details?: unknown; hint?: unknown };
    expect(typeof parsed.code).toBe('string');
    expect(typeof parsed.message).toBe('string');
    const sent = outcome.sent
      .flatMap((text) => [text, ...safeDecode(text).split('&').flatMap((pair) => [pair, ...pair.split('=')])])
      .filter((text) => text.length > 1)
      .sort((a, b) => b.length - a.length);
    const decoded = outcome.sent.map(safeDecode);
    for (const field of [parsed.message, parsed.details, parsed.hint]) {
      if (typeof field !== 'string') continue;
      const unquoted = field.replace(/'([^']*)'|"([^"]*)"/g, (whole, single?: string, double?: string) => {
        const inner = single ?? double ?? '';
        return decoded.some((text) => text.includes(inner)) ? ' ' : whole;
      });
      const own = sent.reduce((text, quoted) => text.split(quoted).join(' '), unquoted);
      for (const pattern of FORBIDDEN_TEXT) expect(own).not.toMatch(pattern);
    }
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

describe('data API under malformed input', () => {
  let fx: DataApiFixture;
  let app: FastifyInstance;
  let cookie: string;
  beforeAll(async () => {
    fx = await startDataApiFixture();
    app = fx.server.running.app;
    cookie = await fx.server.cookieFor('editor');
  });
  afterAll(async () => {
    await fx.close();
  });

  async function checksum(): Promise<string> {
    const result = await fx.server.pool.query<{ sum: string | null }>(`select md5(string_agg(t::text, ',' order by t.id)) as sum from dx_tasks t`);
    return result.rows[0]?.sum ?? '';
  }

  it('never answers 5xx, always codes its 4xx and never leaks SQL, for 7,000 malformed query strings', async () => {
    await fc.assert(
      fc.asyncProperty(queryString, fc.constantFrom('dx_tasks', 'dx_projects', 'rpc/dx_add', 'rpc/dx_projects_of'), async (qs, target) => {
        const response = await app.inject({ method: 'GET', url: `/api/db/${target}?${qs}`, headers: { cookie } });
        checkOutcome({ status: response.statusCode, body: response.body, sent: [qs] });
      }),
      fuzzRuns(7000),
    );
  }, 120_000);

  it('never answers 5xx and changes no rows on a rejected write, for 3,000 malformed writes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('POST', 'PATCH', 'DELETE') as fc.Arbitrary<'POST' | 'PATCH' | 'DELETE'>,
        queryString,
        bodyValue,
        fc.constantFrom('return=representation', 'resolution=merge-duplicates', 'missing=default', 'count=exact', 'nonsense'),
        async (method, qs, body, prefer) => {
          const before = await checksum();
          const response = await app.inject({
            method,
            url: `/api/db/dx_tasks?${qs}`,
            headers: { cookie, 'content-type': 'application/json', prefer },
            ...(method === 'DELETE' ? {} : { payload: body }),
          });
          checkOutcome({ status: response.statusCode, body: response.body, sent: [qs, body] });
          if (response.statusCode >= 400) expect(await checksum()).toBe(before);
        },
      ),
      fuzzRuns(3000),
    );
  }, 120_000);

  it('never answers 5xx to POST, PATCH or DELETE on any view of the schema cache, writable or not', async () => {
    const views = [...(schemaCacheFor(fx.server.running.context.db)?.relations.values() ?? [])].filter((relation) => relation.kind === 'view');
    expect(views.length).toBeGreaterThan(23);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...views),
        fc.constantFrom('POST', 'PATCH', 'DELETE') as fc.Arbitrary<'POST' | 'PATCH' | 'DELETE'>,
        fc.nat(),
        fc.oneof(bodyValue, fc.jsonValue({ maxDepth: 1 })),
        fc.constantFrom('return=representation', 'resolution=merge-duplicates', 'count=exact'),
        async (view, method, pick, loose, prefer) => {
          const columns = [...view.columns.keys()];
          const column = columns[pick % Math.max(columns.length, 1)] ?? 'id';
          const body = pick % 2 === 0 ? JSON.stringify({ [column]: loose }) : typeof loose === 'string' ? loose : JSON.stringify(loose);
          const qs = `${encodeURIComponent(column)}=is.null`;
          const response = await app.inject({
            method,
            url: `/api/db/${view.name}?${qs}`,
            headers: { cookie, 'content-type': 'application/json', prefer },
            ...(method === 'DELETE' ? {} : { payload: body }),
          });
          checkOutcome({ status: response.statusCode, body: response.body, sent: [qs, body] });
          if (!view.writable.insert && !view.writable.update && !view.writable.delete && response.statusCode !== 403) expect(response.statusCode).toBe(405);
        },
      ),
      fuzzRuns(600),
    );
  }, 120_000);

  it('never answers 5xx to JSON bodies nested up to 6,000 levels, and refuses past the limit with OD_JSON_DEPTH', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('POST /api/db/dx_tasks', 'PATCH /api/db/dx_tasks?id=eq.1', 'PATCH /api/db/dx_projects?id=eq.1', 'POST /api/db/rpc/dx_add'),
        fc.constantFrom('meta', 'title', 'a', 'k'),
        depth,
        fc.nat(),
        async (target, key, levels, seed) => {
          const [method = 'POST', url = ''] = target.split(' ');
          const body = seed % 4 === 0 ? nestedJson(levels, seed) : `{"${key}":${nestedJson(levels - 1, seed)}}`;
          const response = await app.inject({ method: method as 'POST' | 'PATCH', url, headers: { cookie, 'content-type': 'application/json' }, payload: body });
          checkOutcome({ status: response.statusCode, body: response.body, sent: [url, body] });
          if (levels > JSON_DEPTH_LIMIT) expect(JSON.parse(response.body)).toMatchObject({ code: 'OD_JSON_DEPTH' });
        },
      ),
      fuzzRuns(300),
    );
  }, 120_000);
});
