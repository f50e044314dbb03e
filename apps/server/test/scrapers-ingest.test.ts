import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';
import { ingestScrapeResult } from '../src/modules/scrapers/ingest';
import { applyRetention } from '../src/modules/scrapers/retention';
import type { ScrapedChange, ScrapedItem, ScrapedRelationship, ScrapeResult } from '../src/modules/scrapers/types';

/**
 * The scrape ingest (issue #12 items 3 and 4, migration 0086) against the real database: what a run creates, changes,
 * folds, deletes and restores, and what a run that finds nothing new leaves untouched.
 */

type Row = Record<string, unknown>;

function deployment(name: string, image: string, replicas = 2): ScrapedItem {
  return {
    type: 'IngestTest::Deployment',
    externalId: `uid-${name}`,
    name,
    tags: { cluster: 'ingest' },
    labels: { app: name },
    health: 'healthy',
    status: 'Running',
    format: 'yaml',
    source: 'test',
    config: {
      kind: 'Deployment',
      metadata: { name },
      spec: { replicas, template: { spec: { containers: [{ name: 'app', image, resources: { limits: { cpu: '1' } } }] } } },
    },
  };
}

function run(items: ScrapedItem[], extra: Partial<ScrapeResult> = {}): ScrapeResult {
  return { items, relationships: [], changes: [], errors: [], complete: true, ...extra };
}

describe('scrape ingest', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(async () => {
    await server.close();
  });

  async function newScraper(name: string): Promise<string> {
    const { rows } = await server.pool.query<{ id: string }>(`insert into config_scrapers (name) values ($1) returning id`, [name]);
    const id = rows[0]?.id;
    if (id === undefined) throw new Error('no scraper');
    return id;
  }

  async function ingest(scraperId: string, result: ScrapeResult, startedAt = new Date()): ReturnType<typeof ingestScrapeResult> {
    return ingestScrapeResult(server.pool, { scraperId, agentId: null, result, startedAt });
  }

  async function items(scraperId: string): Promise<Row[]> {
    const { rows } = await server.pool.query(
      `select id, name, external_id, deleted_at, delete_reason, parent_id, path, updated_at, xmin::text as xmin, config
         from config_items where scraper_id = $1 order by name`,
      [scraperId],
    );
    return rows;
  }

  async function changes(scraperId: string): Promise<Row[]> {
    const { rows } = await server.pool.query(
      `select c.name, ch.change_type, ch.severity, ch.summary, ch.diff, ch.patches, ch.fingerprint, ch.count,
              ch.first_observed, ch.created_at, ch.external_change_id
         from config_changes ch join config_items c on c.id = ch.config_id
        where c.scraper_id = $1 order by ch.created_at, c.name, ch.change_type`,
      [scraperId],
    );
    return rows;
  }

  it('creates new items with a CREATE change each and counts them per type', async () => {
    const scraper = await newScraper('ingest-create');
    const summary = await ingest(scraper, run([deployment('web', 'shop/web:1'), deployment('api', 'shop/api:1')]));
    expect(summary).toEqual({
      types: { 'IngestTest::Deployment': { added: 2, updated: 0, unchanged: 0, deleted: 0 } },
      changes: 2,
      insights: { opened: 0, resolved: 0 },
      errors: [],
    });
    const stored = await items(scraper);
    expect(stored.map((r) => [r.name, r.external_id, r.deleted_at])).toEqual([
      ['api', ['uid-api'], null],
      ['web', ['uid-web'], null],
    ]);
    expect((await changes(scraper)).map((c) => [c.name, c.change_type, c.summary])).toEqual([
      ['api', 'CREATE', 'Created'],
      ['web', 'CREATE', 'Created'],
    ]);
  });

  it('writes nothing for a rescrape that finds nothing new, yet the read models report the run as the last scrape', async () => {
    const scraper = await newScraper('ingest-unchanged');
    const first = [deployment('web', 'shop/web:1'), { ...deployment('api', 'shop/api:1'), aliases: ['default/api'] }];
    await ingest(scraper, run(first));
    // As if the items had been stored a while ago; the ingest must not need to touch them to report them fresh.
    await server.pool.query(`update config_items set last_scraped_time = now() - interval '2 hours' where scraper_id = $1`, [scraper]);
    const before = await items(scraper);
    const changesBefore = await changes(scraper);
    const startedAt = new Date();

    // Same content with keys in another order: the hash is of the canonical form.
    const reordered = first.map((item) => ({ ...item, labels: { ...item.labels }, config: JSON.parse(JSON.stringify(item.config)) as unknown }));
    const summary = await ingest(scraper, run(reordered.reverse()), startedAt);

    expect(summary.types).toEqual({ 'IngestTest::Deployment': { added: 0, updated: 0, unchanged: 2, deleted: 0 } });
    expect(summary.changes).toBe(0);
    const after = await items(scraper);
    expect(after.map((r) => [r.xmin, r.updated_at])).toEqual(before.map((r) => [r.xmin, r.updated_at]));
    expect(await changes(scraper)).toEqual(changesBefore);
    for (const view of ['configs', 'config_detail', `search_configs('web')`]) {
      const { rows } = await server.pool.query<{ last_scraped_time: string }>(
        `select last_scraped_time from ${view} where scraper_id = $1 and name = 'web'`,
        [scraper],
      );
      expect(Date.parse(rows[0]?.last_scraped_time ?? '')).toBeGreaterThanOrEqual(startedAt.getTime() - 1000);
    }
  });

  it('stores a content change as one diff change naming the changed paths, and folds the same change seen again', async () => {
    const scraper = await newScraper('ingest-diff');
    await ingest(scraper, run([deployment('web', 'shop/web:1', 2)]));

    const summary = await ingest(scraper, run([deployment('web', 'shop/web:2', 2)]));
    expect(summary.types['IngestTest::Deployment']).toEqual({ added: 0, updated: 1, unchanged: 0, deleted: 0 });
    const diffs = (await changes(scraper)).filter((c) => c.change_type === 'diff');
    expect(diffs).toHaveLength(1);
    const first = diffs[0] ?? {};
    expect(first.summary).toBe('spec.template.spec.containers');
    expect(first.severity).toBe('medium');
    expect(first.diff).toContain('-        - image: shop/web:1\n+        - image: shop/web:2');
    expect(JSON.parse(String(first.patches))).toEqual([{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'shop/web:2' }]);
    expect(first.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const stored = (await items(scraper))[0] ?? {};
    expect(stored.config).toEqual(deployment('web', 'shop/web:2').config);

    await ingest(scraper, run([deployment('web', 'shop/web:1', 2)]));
    await ingest(scraper, run([deployment('web', 'shop/web:2', 2)]));
    const after = (await changes(scraper)).filter((c) => c.change_type === 'diff');
    expect(after).toHaveLength(2);
    const folded = after.find((c) => c.fingerprint === first.fingerprint) ?? {};
    expect(folded.count).toBe(2);
    expect(folded.first_observed).toBe(first.first_observed);
    expect(Date.parse(String(folded.created_at))).toBeGreaterThan(Date.parse(String(first.created_at)));
  });

  it("stores no diff for an item labelled with config-db's ignore-changes annotation naming diff, yet stores its new content", async () => {
    const scraper = await newScraper('ingest-ignore-diff');
    const quiet = (image: string): ScrapedItem => {
      const item = deployment('quiet', image, 2);
      return { ...item, labels: { ...item.labels, 'config-db.flanksource.com/ignore-changes': 'diff' } };
    };
    await ingest(scraper, run([quiet('shop/quiet:1')]));
    const summary = await ingest(scraper, run([quiet('shop/quiet:2')]));
    expect(summary.types['IngestTest::Deployment']).toEqual({ added: 0, updated: 1, unchanged: 0, deleted: 0 });
    expect((await changes(scraper)).map((c) => c.change_type)).toEqual(['CREATE']);
    expect((await items(scraper))[0]?.config).toEqual(quiet('shop/quiet:2').config);
  });

  it('soft-deletes an item missing from a complete run, keeps one missing from an incomplete run and restores one that returns', async () => {
    const scraper = await newScraper('ingest-delete');
    const web = deployment('web', 'shop/web:1');
    const api = deployment('api', 'shop/api:1');
    await ingest(scraper, run([web, api]));

    const partial = await ingest(scraper, run([web], { complete: false }));
    expect(partial.types['IngestTest::Deployment']?.deleted).toBe(0);
    expect((await items(scraper)).every((r) => r.deleted_at === null)).toBe(true);

    const complete = await ingest(scraper, run([web]));
    expect(complete.types['IngestTest::Deployment']).toEqual({ added: 0, updated: 0, unchanged: 1, deleted: 1 });
    const gone = (await items(scraper)).find((r) => r.name === 'api') ?? {};
    expect(gone.deleted_at).not.toBeNull();
    expect(gone.delete_reason).toBe('NotFound');
    expect((await changes(scraper)).filter((c) => c.name === 'api').map((c) => c.change_type)).toEqual(['CREATE', 'DELETE']);

    const back = await ingest(scraper, run([web, api]));
    expect(back.types['IngestTest::Deployment']).toEqual({ added: 1, updated: 0, unchanged: 1, deleted: 0 });
    const restored = (await items(scraper)).filter((r) => r.name === 'api');
    expect(restored).toHaveLength(1);
    expect(restored[0]?.id).toBe(gone.id);
    expect(restored[0]?.deleted_at).toBeNull();
    expect(restored[0]?.delete_reason).toBeNull();
  });

  it('links parents among the run and the stored items, and keeps the scraper\'s soft links in step with complete runs', async () => {
    const scraper = await newScraper('ingest-links');
    const rs: ScrapedItem = { ...deployment('web-rs', 'shop/web:1'), type: 'IngestTest::ReplicaSet', externalId: 'uid-rs', parent: { type: 'IngestTest::Deployment', externalId: 'uid-web' } };
    const pod: ScrapedItem = { ...deployment('web-pod', 'shop/web:1'), type: 'IngestTest::Pod', externalId: 'uid-pod', parent: { type: 'IngestTest::ReplicaSet', externalId: 'uid-rs' } };
    const svc: ScrapedItem = { ...deployment('web-svc', 'none:1'), type: 'IngestTest::Service', externalId: 'uid-svc' };
    const link: ScrapedRelationship = { from: { type: 'IngestTest::Service', externalId: 'uid-svc' }, to: { type: 'IngestTest::Pod', externalId: 'uid-pod' }, relation: 'selects' };
    await ingest(scraper, run([pod, rs, deployment('web', 'shop/web:1'), svc], { relationships: [link] }));

    const byName = new Map((await items(scraper)).map((r) => [r.name, r]));
    const id = (name: string): unknown => byName.get(name)?.id;
    expect(byName.get('web-rs')?.parent_id).toBe(id('web'));
    expect(byName.get('web-pod')?.parent_id).toBe(id('web-rs'));
    expect(byName.get('web-pod')?.path).toBe(`${String(id('web'))}.${String(id('web-rs'))}`);

    // The parent is stored already and missing from this partial run: it is still found.
    await ingest(scraper, run([{ ...pod, name: 'web-pod', status: 'Pending' }], { complete: false }));
    expect((await items(scraper)).find((r) => r.name === 'web-pod')?.parent_id).toBe(id('web-rs'));

    const links = async (): Promise<Row[]> =>
      (
        await server.pool.query(
          `select config_id, related_id, relation, selector_id, deleted_at from config_relationships
            where config_id = any($1::uuid[]) order by selector_id`,
          [[...byName.values()].map((r) => r.id)],
        )
      ).rows;
    expect(await links()).toEqual([{ config_id: id('web-svc'), related_id: id('web-pod'), relation: 'selects', selector_id: `scraper:${scraper}`, deleted_at: null }]);
    await server.pool.query(`insert into config_relationships (config_id, related_id, relation) values ($1, $2, 'owns')`, [id('web-svc'), id('web')]);

    await ingest(scraper, run([pod, rs, deployment('web', 'shop/web:1'), svc], { relationships: [link], complete: false }));
    await ingest(scraper, run([pod, rs, deployment('web', 'shop/web:1'), svc], { complete: false }));
    expect((await links()).map((l) => [l.selector_id, l.deleted_at === null])).toEqual([
      ['manual', true],
      [`scraper:${scraper}`, true],
    ]);
    await ingest(scraper, run([pod, rs, deployment('web', 'shop/web:1'), svc]));
    expect((await links()).map((l) => [l.selector_id, l.deleted_at === null])).toEqual([
      ['manual', true],
      [`scraper:${scraper}`, false],
    ]);
    await ingest(scraper, run([pod, rs, deployment('web', 'shop/web:1'), svc], { relationships: [link] }));
    expect((await links()).map((l) => [l.selector_id, l.deleted_at === null])).toEqual([
      ['manual', true],
      [`scraper:${scraper}`, true],
    ]);
  });

  it('stores a change the source reported once, however often it is reported', async () => {
    const scraper = await newScraper('ingest-events');
    const web = deployment('web', 'shop/web:1');
    const event: ScrapedChange = {
      item: { type: web.type, externalId: web.externalId },
      externalChangeId: 'event-1',
      changeType: 'ScalingReplicaSet',
      severity: 'info',
      summary: 'Scaled up replica set web-rs to 3',
      details: { reason: 'ScalingReplicaSet' },
      source: 'kubernetes/ingest',
      createdAt: '2026-01-02T03:04:05Z',
    };
    const first = await ingest(scraper, run([web], { changes: [event, { ...event, item: { type: web.type, externalId: 'nobody' }, externalChangeId: 'event-2' }] }));
    const again = await ingest(scraper, run([web], { changes: [event] }));
    expect(first.changes).toBe(2);
    expect(again.changes).toBe(0);
    const events = (await changes(scraper)).filter((c) => c.external_change_id !== null);
    expect(events.map((c) => [c.external_change_id, c.change_type, c.summary, Date.parse(String(c.created_at))])).toEqual([
      ['event-1', 'ScalingReplicaSet', 'Scaled up replica set web-rs to 3', Date.parse(event.createdAt)],
    ]);
  });

  it('opens insights for new and changed items and resolves them when the condition clears or the item goes', async () => {
    const scraper = await newScraper('ingest-insights');
    const floating = deployment('web', 'shop/web:latest');
    const other = deployment('api', 'shop/api');
    const opened = await ingest(scraper, run([floating, other]));
    expect(opened.insights).toEqual({ opened: 2, resolved: 0 });
    const findings = async (): Promise<Row[]> =>
      (
        await server.pool.query(
          `select c.name, a.analyzer, a.analysis_type, a.status, a.first_observed, a.last_observed
             from config_analysis a join config_items c on c.id = a.config_id where c.scraper_id = $1 order by c.name`,
          [scraper],
        )
      ).rows;
    const initial = await findings();
    expect(initial.map((f) => [f.name, f.analyzer, f.analysis_type, f.status])).toEqual([
      ['api', 'container-image-tag', 'security', 'open'],
      ['web', 'container-image-tag', 'security', 'open'],
    ]);

    const stillFloating = await ingest(scraper, run([{ ...floating, status: 'Progressing' }, other]));
    expect(stillFloating.insights).toEqual({ opened: 0, resolved: 0 });
    const kept = (await findings()).find((f) => f.name === 'web') ?? {};
    expect(kept.first_observed).toBe(initial.find((f) => f.name === 'web')?.first_observed);
    expect(Date.parse(String(kept.last_observed))).toBeGreaterThan(Date.parse(String(kept.first_observed)));

    const fixed = await ingest(scraper, run([deployment('web', 'shop/web:3')]));
    expect(fixed.insights).toEqual({ opened: 0, resolved: 2 });
    expect((await findings()).map((f) => [f.name, f.status])).toEqual([
      ['api', 'resolved'],
      ['web', 'resolved'],
    ]);

    const reopened = await ingest(scraper, run([floating]));
    expect(reopened.insights).toEqual({ opened: 1, resolved: 0 });
  });

  it('prunes changes by age and count per item, and items of a type by their created, updated and deleted ages', async () => {
    const scraper = await newScraper('ingest-retention');
    await ingest(scraper, run([deployment('web', 'shop/web:1'), deployment('api', 'shop/api:1'), deployment('old', 'shop/old:1')]));
    for (const version of [2, 3, 4]) {
      await ingest(scraper, run([deployment('web', `shop/web:${version}`), deployment('api', 'shop/api:1'), deployment('old', 'shop/old:1')]));
    }
    await server.pool.query(
      `update config_changes set created_at = now() - interval '10 days'
        where change_type = 'CREATE' and config_id in (select id from config_items where scraper_id = $1 and name = 'api')`,
      [scraper],
    );
    await server.pool.query(`update config_items set created_at = now() - interval '100 days' where scraper_id = $1 and name = 'old'`, [scraper]);
    await server.pool.query(`update config_items set deleted_at = now() - interval '40 days' where scraper_id = $1 and name = 'api'`, [scraper]);

    const day = 86_400_000;
    const pruned = await applyRetention(server.pool, scraper, {
      changes: [
        { name: 'diff', maxAgeMs: null, count: 1 },
        { name: 'CREATE', maxAgeMs: 7 * day, count: null },
      ],
      types: [{ name: 'IngestTest::Deployment', createdAgeMs: 90 * day, updatedAgeMs: null, deletedAgeMs: 30 * day }],
    });
    // Two of web's three diffs, api's CREATE (with api itself, deleted 40 days ago) and old, soft-deleted by age.
    expect(pruned).toEqual({ changesDeleted: 3, itemsDeleted: 2 });
    const left = await items(scraper);
    expect(left.map((r) => [r.name, r.deleted_at === null])).toEqual([
      ['old', false],
      ['web', true],
    ]);
    const webDiffs = (await changes(scraper)).filter((c) => c.name === 'web' && c.change_type === 'diff');
    expect(webDiffs.map((c) => c.summary)).toEqual(['spec.template.spec.containers']);
    expect(JSON.parse(String(webDiffs[0]?.patches))).toEqual([{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'shop/web:4' }]);
    expect((await changes(scraper)).filter((c) => c.name === 'old').map((c) => c.change_type)).toEqual(['CREATE', 'DELETE']);
  });

  it('keeps an item retired by a retention age deleted while it is unchanged, and brings it back when it changes', async () => {
    const scraper = await newScraper('ingest-retired');
    await ingest(scraper, run([deployment('idle', 'shop/idle:1')]));
    // updated_at is stamped by a trigger, so the item is made old enough by waiting past a tiny age instead.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await applyRetention(server.pool, scraper, {
      changes: [],
      types: [{ name: 'IngestTest::Deployment', createdAgeMs: null, updatedAgeMs: 5, deletedAgeMs: null }],
    });
    expect((await items(scraper)).map((r) => r.delete_reason)).toEqual(['Retention']);

    const unchanged = await ingest(scraper, run([deployment('idle', 'shop/idle:1')]));
    expect(unchanged.types['IngestTest::Deployment']).toEqual({ added: 0, updated: 0, unchanged: 1, deleted: 0 });
    expect((await items(scraper)).map((r) => r.deleted_at === null)).toEqual([false]);

    const changed = await ingest(scraper, run([deployment('idle', 'shop/idle:2')]));
    expect(changed.types['IngestTest::Deployment']).toEqual({ added: 1, updated: 0, unchanged: 0, deleted: 0 });
    expect((await items(scraper)).map((r) => [r.deleted_at, r.delete_reason])).toEqual([[null, null]]);
  });
});
