import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type JsonReply, type TestServer } from './harness';

/**
 * Spec 002 §7 "Catalog data": every view and function the catalog screens read through /api/db, with the filters,
 * counts and link rules they rely on, on a small estate of their own (type CBTest::*).
 */

const ID = {
  scraper: '00000000-0000-4000-8000-00000000cb01',
  ns: '00000000-0000-4000-8000-00000000cb11',
  podA: '00000000-0000-4000-8000-00000000cb12',
  podB: '00000000-0000-4000-8000-00000000cb13',
  podGone: '00000000-0000-4000-8000-00000000cb14',
  svcA: '00000000-0000-4000-8000-00000000cb21',
  svcB: '00000000-0000-4000-8000-00000000cb22',
  svcC: '00000000-0000-4000-8000-00000000cb23',
  topology: '00000000-0000-4000-8000-00000000cb31',
  component: '00000000-0000-4000-8000-00000000cb32',
  spareComponent: '00000000-0000-4000-8000-00000000cb33',
  canary: '00000000-0000-4000-8000-00000000cb41',
  check: '00000000-0000-4000-8000-00000000cb42',
  playbook: '00000000-0000-4000-8000-00000000cb51',
} as const;

/** A chain of soft links twelve steps long, to show the walk stops at 10 whatever max_depth asks. */
const CHAIN = Array.from({ length: 13 }, (_, i) => `00000000-0000-4000-8000-00000000cc${String(i).padStart(2, '0')}`);

const FIXTURE_SQL = `
  insert into config_scrapers (id, name) values ('${ID.scraper}', 'cb-scraper');
  insert into config_items (id, type, config_class, name, status, health, scraper_id)
    values ('${ID.ns}', 'CBTest::Namespace', 'CBTest', 'cb-ns', 'Active', 'healthy', '${ID.scraper}');
  insert into config_items (id, type, config_class, name, status, health, parent_id, tags, labels, cost_total_1d, cost_total_30d, config)
    values ('${ID.podA}', 'CBTest::Pod', 'CBTest', 'cb-pod-a', 'Running', 'healthy', '${ID.ns}',
            '{"cluster": "cb-prod", "namespace": "cb-shop"}', '{"app": "cb-shop"}', 2, 30, '{"spec": {"replicas": 1}}');
  insert into config_items (id, type, config_class, name, status, health, parent_id)
    values ('${ID.podB}', 'CBTest::Pod', 'CBTest', 'cb-pod-b', 'CrashLoopBackOff', 'unhealthy', '${ID.ns}');
  insert into config_items (id, type, config_class, name, status, health, parent_id, deleted_at)
    values ('${ID.podGone}', 'CBTest::Pod', 'CBTest', 'cb-pod-gone', 'Terminated', 'unknown', '${ID.ns}', now());
  insert into config_items (id, type, config_class, name, status, health) values
    ('${ID.svcA}', 'CBTest::Service', 'CBTest', 'cb-svc-a', 'Active', 'healthy'),
    ('${ID.svcB}', 'CBTest::Service', 'CBTest', 'cb-svc-b', 'Active', 'warning'),
    ('${ID.svcC}', 'CBTest::Service', 'CBTest', 'cb-svc-c', 'Active', 'healthy');
  insert into config_relationships (config_id, related_id, relation, selector_id) values
    ('${ID.svcA}', '${ID.svcB}', 'calls', 'manual'),
    ('${ID.svcB}', '${ID.svcC}', 'calls', 'cb-mesh'),
    ('${ID.svcC}', '${ID.svcA}', 'calls', 'cb-mesh'),
    ('${ID.svcA}', '${ID.podA}', 'routes', 'cb-mesh');
  insert into config_items (id, type, config_class, name)
    select ('{${CHAIN.join(',')}}'::uuid[])[g + 1], 'CBTest::Link', 'CBTest', 'cb-link-' || lpad(g::text, 2, '0')
      from generate_series(0, ${CHAIN.length - 1}) g;
  insert into config_relationships (config_id, related_id, relation, selector_id)
    select c[g], c[g + 1], 'next', 'cb-chain' from (select '{${CHAIN.join(',')}}'::uuid[] as c) x, generate_series(1, ${CHAIN.length - 1}) g;
  insert into config_changes (config_id, change_type, severity, source, summary, created_at, first_observed) values
    ('${ID.podA}', 'CBDiff', 'medium', 'kubernetes', 'image bumped', now() - interval '2 hours', now() - interval '2 hours'),
    ('${ID.podA}', 'CBScaled', 'high', 'kubernetes', 'scaled to 3', now() - interval '1 hour', now() - interval '1 hour'),
    ('${ID.podB}', 'CBDiff', 'low', 'kubernetes', 'old change', now() - interval '40 days', now() - interval '40 days');
  insert into config_analysis (config_id, analyzer, analysis_type, severity, status, message, first_observed) values
    ('${ID.podA}', 'cb-memory', 'reliability', 'high', 'open', 'OOM-killed', now() - interval '2 hours'),
    ('${ID.podA}', 'cb-cve', 'security', 'critical', 'resolved', 'CVE in base image', now() - interval '1 hour'),
    ('${ID.podB}', 'cb-cost', 'cost', 'low', 'open', 'Over-provisioned', now() - interval '3 hours');
  insert into topologies (id, name) values ('${ID.topology}', 'cb-topology');
  insert into components (id, topology_id, name) values ('${ID.component}', '${ID.topology}', 'cb-checkout'),
    ('${ID.spareComponent}', '${ID.topology}', 'cb-spare');
  insert into config_component_relationships (component_id, config_id, selector_id) values
    ('${ID.component}', '${ID.podA}', 'manual'),
    ('${ID.component}', '${ID.podA}', 'cb-topology'),
    ('${ID.component}', '${ID.podB}', 'cb-topology'),
    ('${ID.spareComponent}', '${ID.svcC}', 'cb-topology');
  insert into canaries (id, name) values ('${ID.canary}', 'cb-canary');
  insert into checks (id, canary_id, type, name, status) values ('${ID.check}', '${ID.canary}', 'http', 'cb-check', 'healthy');
  insert into check_config_relationships (config_id, check_id, selector_id) values
    ('${ID.podA}', '${ID.check}', 'manual'), ('${ID.podA}', '${ID.check}', 'cb-selector');
  insert into check_statuses (check_id, time, status, duration) values
    ('${ID.check}', now() - interval '10 minutes', true, 120), ('${ID.check}', now() - interval '5 minutes', false, 900);
  insert into playbooks (id, name) values ('${ID.playbook}', 'cb-restart');
  insert into playbook_runs (playbook_id, config_id) values ('${ID.playbook}', '${ID.podA}');
`;

type Row = Record<string, unknown>;

describe('catalog data through /api/db (spec 002 §7)', () => {
  let server: TestServer;
  let viewer: string;
  let editor: string;

  beforeAll(async () => {
    server = await startTestServer();
    await server.pool.query(FIXTURE_SQL);
    viewer = await server.cookieFor('viewer');
    editor = await server.cookieFor('editor');
  });
  afterAll(async () => {
    await server.close();
  });

  function call(method: string, path: string, cookie: string, body?: unknown, headers?: Record<string, string>): Promise<JsonReply> {
    return server.call(method, `/api/db/${path}`, cookie, body, headers);
  }

  async function rows(path: string, cookie = viewer): Promise<Row[]> {
    const reply = await call('GET', path, cookie);
    expect(reply.status, reply.text).toBeLessThan(300);
    return JSON.parse(reply.text) as Row[];
  }

  async function names(path: string, cookie = viewer): Promise<unknown[]> {
    return (await rows(path, cookie)).map((row) => row.name);
  }

  describe('the catalog list and its filter dropdowns', () => {
    it('lists configs with tags, labels, health, status, costs and 30-day change and open-insight summaries', async () => {
      const list = await rows(
        'configs?select=name,type,config_class,status,health,tags,labels,cost_total_1d,cost_total_30d,changes,analysis,deleted_at,last_scraped_time' +
          '&type=eq.CBTest::Pod&order=name',
      );
      expect(list).toEqual([
        {
          name: 'cb-pod-a', type: 'CBTest::Pod', config_class: 'CBTest', status: 'Running', health: 'healthy',
          tags: { cluster: 'cb-prod', namespace: 'cb-shop' }, labels: { app: 'cb-shop' }, cost_total_1d: 2, cost_total_30d: 30,
          changes: 2, analysis: { reliability: 1 }, deleted_at: null, last_scraped_time: null,
        },
        expect.objectContaining({ name: 'cb-pod-b', health: 'unhealthy', changes: 0, analysis: { cost: 1 } }),
        expect.objectContaining({ name: 'cb-pod-gone', deleted_at: expect.any(String) as unknown }),
      ]);
    });

    it('filters configs by tag and label containment, health, status and hides deleted ones on request', async () => {
      expect(await names('configs?tags=cs.{"cluster":"cb-prod"}')).toEqual(['cb-pod-a']);
      expect(await names('configs?labels=cs.{"app":"cb-shop"}')).toEqual(['cb-pod-a']);
      expect(await names('configs?type=eq.CBTest::Pod&health=eq.unhealthy')).toEqual(['cb-pod-b']);
      expect(await names('configs?type=eq.CBTest::Pod&status=in.(Running,CrashLoopBackOff)&order=name')).toEqual(['cb-pod-a', 'cb-pod-b']);
      expect(await names('configs?type=eq.CBTest::Pod&deleted_at=is.null&order=name')).toEqual(['cb-pod-a', 'cb-pod-b']);
    });

    it('embeds the scraper of a config through configs, as the creator column needs', async () => {
      expect(await rows(`configs?select=name,scraper:scraper_id(id,name)&id=eq.${ID.ns}`)).toEqual([
        { name: 'cb-ns', scraper: { id: ID.scraper, name: 'cb-scraper' } },
      ]);
    });

    it('lists config names with their type and class, deleted ones marked', async () => {
      expect(await rows('config_names?type=like.CBTest::P*&order=name')).toEqual([
        { id: ID.podA, name: 'cb-pod-a', type: 'CBTest::Pod', config_class: 'CBTest', agent_id: null, deleted_at: null },
        expect.objectContaining({ id: ID.podB, name: 'cb-pod-b' }),
        expect.objectContaining({ id: ID.podGone, deleted_at: expect.any(String) as unknown }),
      ]);
    });

    it('lists the tag and label values living items carry', async () => {
      expect(await rows('config_tags?key=in.(cluster,namespace)&value=like.cb-*&order=key')).toEqual([
        { key: 'cluster', value: 'cb-prod' },
        { key: 'namespace', value: 'cb-shop' },
      ]);
      expect(await rows('config_labels?value=like.cb-*')).toEqual([{ key: 'app', value: 'cb-shop' }]);
    });

    it('lists each type of a living item once with its class', async () => {
      expect(await rows('config_types?type=like.CBTest*')).toEqual([
        { type: 'CBTest::Link', config_class: 'CBTest' },
        { type: 'CBTest::Namespace', config_class: 'CBTest' },
        { type: 'CBTest::Pod', config_class: 'CBTest' },
        { type: 'CBTest::Service', config_class: 'CBTest' },
      ]);
    });

    it('lists each status once', async () => {
      expect(await rows('config_statuses?status=in.(Active,Running,CrashLoopBackOff)')).toEqual([
        { status: 'Active' }, { status: 'CrashLoopBackOff' }, { status: 'Running' },
      ]);
    });

    it('lists each analyzer and each change type once', async () => {
      expect(await rows('config_analysis_analyzers?analyzer=like.cb-*')).toEqual([
        { analyzer: 'cb-cost' }, { analyzer: 'cb-cve' }, { analyzer: 'cb-memory' },
      ]);
      expect(await rows('change_types?change_type=like.CB*')).toEqual([{ change_type: 'CBDiff' }, { change_type: 'CBScaled' }]);
    });
  });

  describe('the config page', () => {
    it('answers config_detail for one id with its content and the five tab badge counts', async () => {
      const reply = await call('GET', `config_detail?id=eq.${ID.podA}`, viewer, undefined, { accept: 'application/vnd.pgrst.object+json' });
      expect(reply.status).toBe(200);
      expect(reply.json).toMatchObject({
        name: 'cb-pod-a', config: { spec: { replicas: 1 } }, tags: { cluster: 'cb-prod', namespace: 'cb-shop' },
        // the parent namespace and svc-a's soft link; the check linked by two selectors counts once
        changes: 2, analysis: 2, relationships: 2, playbook_runs: 1, checks: 1,
      });
    });

    it('counts relationships one step away in both directions, hard and soft, without deleted items', async () => {
      const counts = await rows(`config_detail?select=name,relationships&id=in.(${ID.ns},${ID.svcA})&order=name`);
      // ns: pod-a and pod-b (pod-gone is deleted); svc-a: svc-b and pod-a outgoing, svc-c incoming
      expect(counts).toEqual([{ name: 'cb-ns', relationships: 2 }, { name: 'cb-svc-a', relationships: 3 }]);
    });

    it('reads a config’s insights from config_analysis with the config embedded', async () => {
      expect(await rows(`config_analysis?select=analyzer,analysis_type,severity,status,message,config:config_id(name,type)&config_id=eq.${ID.podA}&order=analyzer`)).toEqual([
        { analyzer: 'cb-cve', analysis_type: 'security', severity: 'critical', status: 'resolved', message: 'CVE in base image', config: { name: 'cb-pod-a', type: 'CBTest::Pod' } },
        { analyzer: 'cb-memory', analysis_type: 'reliability', severity: 'high', status: 'open', message: 'OOM-killed', config: { name: 'cb-pod-a', type: 'CBTest::Pod' } },
      ]);
    });

    it('reads a config’s changes from config_changes, newest first, with the config’s name, type and tags embedded', async () => {
      expect(await rows(`config_changes?select=change_type,severity,summary,count,config:config_id(name,type,tags)&config_id=eq.${ID.podA}&order=created_at.desc`)).toEqual([
        { change_type: 'CBScaled', severity: 'high', summary: 'scaled to 3', count: 1, config: { name: 'cb-pod-a', type: 'CBTest::Pod', tags: { cluster: 'cb-prod', namespace: 'cb-shop' } } },
        { change_type: 'CBDiff', severity: 'medium', summary: 'image bumped', count: 1, config: { name: 'cb-pod-a', type: 'CBTest::Pod', tags: { cluster: 'cb-prod', namespace: 'cb-shop' } } },
      ]);
    });

    it('reads the soft links of a config from config_relationships, with the related item embedded', async () => {
      expect(await rows(`config_relationships?select=relation,selector_id,related:related_id(name)&config_id=eq.${ID.svcA}&order=relation`)).toEqual([
        { relation: 'calls', selector_id: 'manual', related: { name: 'cb-svc-b' } },
        { relation: 'routes', selector_id: 'cb-mesh', related: { name: 'cb-pod-a' } },
      ]);
    });

    it('summarises each check of a config once, with 24-hour uptime and latency', async () => {
      const summary = await rows(`check_summary_for_config?config_id=eq.${ID.podA}`);
      expect(summary).toEqual([
        expect.objectContaining({
          config_id: ID.podA, id: ID.check, name: 'cb-check', status: 'healthy', uptime: { passed: 1, failed: 1 },
          latency: { p95: expect.any(Number) as unknown, p97: expect.any(Number) as unknown, p99: expect.any(Number) as unknown },
        }),
      ]);
    });
  });

  describe('insights', () => {
    const itemsOf = async (query: string) => (await rows(`config_analysis_items?analyzer=like.cb-*&order=first_observed.desc${query}`)).map((row) => row.analyzer);

    it('lists insights with their item’s name and type, newest first when the client orders by first_observed.desc', async () => {
      const [first] = await rows(`config_analysis_items?analyzer=eq.cb-memory`);
      expect(first).toEqual(expect.objectContaining({
        config_id: ID.podA, config_name: 'cb-pod-a', config_type: 'CBTest::Pod', config_class: 'CBTest', config_deleted_at: null,
        analysis_type: 'reliability', severity: 'high', status: 'open', message: 'OOM-killed', analysis: null,
      }));
      expect(await itemsOf('')).toEqual(['cb-cve', 'cb-memory', 'cb-cost']);
    });

    it('filters insights by status, analysis type, severity, analyzer, config and config type', async () => {
      expect(await itemsOf('&status=eq.open')).toEqual(['cb-memory', 'cb-cost']);
      expect(await itemsOf('&analysis_type=eq.security')).toEqual(['cb-cve']);
      expect(await itemsOf('&severity=in.(low,high)')).toEqual(['cb-memory', 'cb-cost']);
      expect(await itemsOf('&analyzer=eq.cb-cost')).toEqual(['cb-cost']);
      expect(await itemsOf(`&config_id=eq.${ID.podB}`)).toEqual(['cb-cost']);
      expect(await itemsOf('&config_type=eq.CBTest::Pod&status=eq.resolved')).toEqual(['cb-cve']);
    });

    it('filters insights by component through analysis_by_component, each once though a config is linked twice', async () => {
      const byComponent = await rows(`analysis_by_component?component_id=eq.${ID.component}&order=first_observed.desc`);
      expect(byComponent.map((row) => row.analyzer)).toEqual(['cb-cve', 'cb-memory', 'cb-cost']);
      expect(await rows(`analysis_by_component?component_id=eq.${ID.component}&status=eq.open&severity=eq.low&select=analyzer,config_name`)).toEqual([
        { analyzer: 'cb-cost', config_name: 'cb-pod-b' },
      ]);
    });

    it('gives analysis_by_component every column of config_analysis_items plus component_id', async () => {
      const [item] = await rows(`config_analysis_items?analyzer=eq.cb-memory`);
      const [byComponent] = await rows(`analysis_by_component?analyzer=eq.cb-memory`);
      expect(Object.keys(byComponent ?? {}).sort()).toEqual([...Object.keys(item ?? {}), 'component_id'].sort());
    });

    it('lists a component’s changes through changes_by_component, each once, with the config’s name, type and tags', async () => {
      const changes = await rows(`changes_by_component?component_id=eq.${ID.component}&order=created_at.desc&select=change_type,config_name,config_type,tags`);
      expect(changes).toEqual([
        { change_type: 'CBScaled', config_name: 'cb-pod-a', config_type: 'CBTest::Pod', tags: { cluster: 'cb-prod', namespace: 'cb-shop' } },
        { change_type: 'CBDiff', config_name: 'cb-pod-a', config_type: 'CBTest::Pod', tags: { cluster: 'cb-prod', namespace: 'cb-shop' } },
        { change_type: 'CBDiff', config_name: 'cb-pod-b', config_type: 'CBTest::Pod', tags: {} },
      ]);
    });
  });

  describe('related_configs_recursive', () => {
    type Related = { name: string; depth: number; direction: string };
    const walk = async (query: string, cookie = viewer): Promise<Related[]> =>
      (await rows(`rpc/related_configs_recursive?${query}&select=name,depth,direction&order=direction.desc,depth,name`, cookie)) as Related[];

    it('walks the cycle svc-a → svc-b → svc-c → svc-a outgoing, listing each item once at the depth it is first reached', async () => {
      expect(await walk(`config_id=${ID.svcA}`)).toEqual([
        { name: 'cb-pod-a', depth: 1, direction: 'outgoing' },
        { name: 'cb-svc-b', depth: 1, direction: 'outgoing' },
        { name: 'cb-svc-c', depth: 2, direction: 'outgoing' },
      ]);
    });

    it('walks the cycle incoming, and both ways with type_filter all, each direction once', async () => {
      expect(await walk(`config_id=${ID.svcA}&type_filter=incoming`)).toEqual([
        { name: 'cb-svc-c', depth: 1, direction: 'incoming' },
        { name: 'cb-svc-b', depth: 2, direction: 'incoming' },
      ]);
      expect(await walk(`config_id=${ID.svcA}&type_filter=all`)).toEqual([
        { name: 'cb-pod-a', depth: 1, direction: 'outgoing' },
        { name: 'cb-svc-b', depth: 1, direction: 'outgoing' },
        { name: 'cb-svc-c', depth: 2, direction: 'outgoing' },
        { name: 'cb-svc-c', depth: 1, direction: 'incoming' },
        { name: 'cb-svc-b', depth: 2, direction: 'incoming' },
      ]);
    });

    it('reports the items leading to each one and the relation it was reached by', async () => {
      expect(await rows(`rpc/related_configs_recursive?config_id=${ID.svcA}&select=name,related_ids,relation&name=eq.cb-svc-c`)).toEqual([
        { name: 'cb-svc-c', related_ids: [ID.svcB], relation: 'calls' },
      ]);
    });

    it('stops at max_depth, and walks at most 10 steps whatever larger depth is asked', async () => {
      expect(await walk(`config_id=${ID.svcA}&max_depth=1`)).toEqual([
        { name: 'cb-pod-a', depth: 1, direction: 'outgoing' },
        { name: 'cb-svc-b', depth: 1, direction: 'outgoing' },
      ]);
      const deep = await walk(`config_id=${CHAIN[0] ?? ''}&max_depth=50`);
      expect(deep.map((row) => row.depth)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(await walk(`config_id=${CHAIN[0] ?? ''}`)).toEqual(deep);
    });

    it('follows only the parent tree with relation hard, and leaves deleted items out unless asked', async () => {
      expect(await walk(`config_id=${ID.ns}&outgoing_relation=hard`)).toEqual([
        { name: 'cb-pod-a', depth: 1, direction: 'outgoing' },
        { name: 'cb-pod-b', depth: 1, direction: 'outgoing' },
      ]);
      expect(await walk(`config_id=${ID.svcA}&outgoing_relation=hard`)).toEqual([]);
      expect(await walk(`config_id=${ID.ns}&include_deleted_configs=true`)).toEqual([
        { name: 'cb-pod-a', depth: 1, direction: 'outgoing' },
        { name: 'cb-pod-b', depth: 1, direction: 'outgoing' },
        { name: 'cb-pod-gone', depth: 1, direction: 'outgoing' },
      ]);
      expect(await walk(`config_id=${ID.podA}&type_filter=incoming&incoming_relation=hard`)).toEqual([
        { name: 'cb-ns', depth: 1, direction: 'incoming' },
      ]);
      expect(await walk(`config_id=${ID.podA}&type_filter=incoming&incoming_relation=both`)).toEqual([
        { name: 'cb-ns', depth: 1, direction: 'incoming' },
        { name: 'cb-svc-a', depth: 1, direction: 'incoming' },
        { name: 'cb-svc-c', depth: 2, direction: 'incoming' },
        { name: 'cb-svc-b', depth: 3, direction: 'incoming' },
      ]);
    });

    it('reports only items of the asked types, statuses and healths, still walking through the others', async () => {
      expect(await walk(`config_id=${ID.ns}&health={unhealthy}`)).toEqual([{ name: 'cb-pod-b', depth: 1, direction: 'outgoing' }]);
      expect(await walk(`config_id=${ID.ns}&status={Running,Active}`)).toEqual([{ name: 'cb-pod-a', depth: 1, direction: 'outgoing' }]);
      expect(await walk(`config_id=${ID.svcA}&type={CBTest::Service}&health={healthy}`)).toEqual([
        { name: 'cb-svc-c', depth: 2, direction: 'outgoing' },
      ]);
    });

    it('answers rows of related_configs, the one-step view, whose config_id is where the walk started', async () => {
      expect(await rows(`related_configs?config_id=eq.${ID.svcA}&select=name,direction,depth,relation,related_ids&order=direction.desc,name`)).toEqual([
        { name: 'cb-pod-a', direction: 'outgoing', depth: 1, relation: 'routes', related_ids: [ID.svcA] },
        { name: 'cb-svc-b', direction: 'outgoing', depth: 1, relation: 'calls', related_ids: [ID.svcA] },
        { name: 'cb-svc-c', direction: 'incoming', depth: 1, relation: 'calls', related_ids: [ID.svcA] },
      ]);
      expect(await rows(`rpc/related_configs_recursive?config_id=${ID.svcA}&select=config_id&depth=eq.2`)).toEqual([{ config_id: ID.svcA }]);
    });

    it('takes its arguments as a JSON body on POST, for a viewer too', async () => {
      const reply = await call('POST', 'rpc/related_configs_recursive?select=name,depth&order=depth,name', viewer, {
        config_id: ID.svcA, type_filter: 'all', max_depth: 1, type: ['CBTest::Service'],
      });
      expect(reply.status, reply.text).toBe(200);
      expect(JSON.parse(reply.text)).toEqual([{ name: 'cb-svc-b', depth: 1 }, { name: 'cb-svc-c', depth: 1 }]);
    });

    it('refuses a config_id that is not a uuid, an unknown type_filter or relation and a negative depth with a coded 400', async () => {
      const cases: Array<[string, string]> = [
        ['config_id=not-a-uuid', '22P02'],
        [`config_id=${ID.svcA}&type_filter=sideways`, '22023'],
        [`config_id=${ID.svcA}&incoming_relation=soft`, '22023'],
        [`config_id=${ID.svcA}&outgoing_relation=`, '22023'],
        [`config_id=${ID.svcA}&max_depth=-1`, '22023'],
        [`config_id=${ID.svcA}&max_depth=ten`, '22P02'],
      ];
      for (const [query, code] of cases) {
        const reply = await call('GET', `rpc/related_configs_recursive?${query}`, viewer);
        expect({ query, status: reply.status, code: reply.json.code }).toEqual({ query, status: 400, code });
      }
    });
  });

  describe('links between components and configs', () => {
    const links = async (component: string) =>
      (await rows(`config_component_relationships?component_id=eq.${component}&select=config_id,selector_id,config:config_id(name)&order=config_id,selector_id`));

    it('lists the links of a component with the config embedded', async () => {
      expect(await links(ID.component)).toEqual([
        { config_id: ID.podA, selector_id: 'cb-topology', config: { name: 'cb-pod-a' } },
        { config_id: ID.podA, selector_id: 'manual', config: { name: 'cb-pod-a' } },
        { config_id: ID.podB, selector_id: 'cb-topology', config: { name: 'cb-pod-b' } },
      ]);
    });

    it('lets an editor link a config manually and unlink it by component and config', async () => {
      const created = await call('POST', 'config_component_relationships', editor,
        { component_id: ID.spareComponent, config_id: ID.svcB, selector_id: 'manual' }, { prefer: 'return=representation' });
      expect(created.status, created.text).toBe(201);
      expect(JSON.parse(created.text)).toEqual([expect.objectContaining({ component_id: ID.spareComponent, config_id: ID.svcB, selector_id: 'manual' })]);
      const removed = await call('DELETE', `config_component_relationships?component_id=eq.${ID.spareComponent}&config_id=eq.${ID.svcB}`, editor);
      expect(removed.status, removed.text).toBe(204);
      expect((await links(ID.spareComponent)).map((row) => row.config_id)).toEqual([ID.svcC]);
    });

    it('refuses a viewer linking or unlinking with 403, and an anonymous caller with 401', async () => {
      const post = await call('POST', 'config_component_relationships', viewer, { component_id: ID.spareComponent, config_id: ID.svcB, selector_id: 'manual' });
      expect({ status: post.status, code: post.json.code }).toEqual({ status: 403, code: '42501' });
      const remove = await call('DELETE', `config_component_relationships?component_id=eq.${ID.component}&config_id=eq.${ID.podA}&selector_id=eq.manual`, viewer);
      expect({ status: remove.status, code: remove.json.code }).toEqual({ status: 403, code: '42501' });
      const anonymous = await call('POST', 'config_component_relationships', '', { component_id: ID.spareComponent, config_id: ID.svcB, selector_id: 'manual' });
      expect(anonymous.status).toBe(401);
      expect(await links(ID.component)).toHaveLength(3);
    });

    it('refuses an editor removing, changing or forging a link a selector made, with 400 P0001, and changes nothing', async () => {
      const nonManual = await call('DELETE', `config_component_relationships?component_id=eq.${ID.component}&config_id=eq.${ID.podB}`, editor);
      expect({ status: nonManual.status, code: nonManual.json.code, message: nonManual.json.message }).toEqual({
        status: 400, code: 'P0001', message: 'Only links created by a user can be removed or changed',
      });
      const bothKinds = await call('DELETE', `config_component_relationships?component_id=eq.${ID.component}&config_id=eq.${ID.podA}`, editor);
      expect({ status: bothKinds.status, code: bothKinds.json.code }).toEqual({ status: 400, code: 'P0001' });
      const changed = await call('PATCH', `config_component_relationships?component_id=eq.${ID.component}&config_id=eq.${ID.podB}`, editor, { selector_id: 'manual' });
      expect({ status: changed.status, code: changed.json.code }).toEqual({ status: 400, code: 'P0001' });
      const forged = await call('POST', 'config_component_relationships', editor, { component_id: ID.spareComponent, config_id: ID.svcA, selector_id: 'cb-topology' });
      expect({ status: forged.status, code: forged.json.code }).toEqual({ status: 400, code: 'P0001' });
      expect(await links(ID.component)).toHaveLength(3);
      expect(await links(ID.spareComponent)).toHaveLength(1);
    });

    it('removes only the manual link of a pair also linked by a selector when the filter names selector_id manual', async () => {
      const removed = await call('DELETE', `config_component_relationships?component_id=eq.${ID.component}&config_id=eq.${ID.podA}&selector_id=eq.manual`, editor);
      expect(removed.status, removed.text).toBe(204);
      expect((await links(ID.component)).map((row) => row.selector_id)).toEqual(['cb-topology', 'cb-topology']);
    });

    it('guards soft links between configs the same way', async () => {
      const nonManual = await call('DELETE', `config_relationships?config_id=eq.${ID.svcB}&related_id=eq.${ID.svcC}`, editor);
      expect({ status: nonManual.status, code: nonManual.json.code }).toEqual({ status: 400, code: 'P0001' });
      const created = await call('POST', 'config_relationships', editor, { config_id: ID.svcB, related_id: ID.podB, relation: 'uses', selector_id: 'manual' });
      expect(created.status, created.text).toBe(201);
      const removed = await call('DELETE', `config_relationships?config_id=eq.${ID.svcB}&related_id=eq.${ID.podB}`, editor);
      expect(removed.status, removed.text).toBe(204);
    });

    it('still removes a selector’s links when an editor deletes the component they belong to', async () => {
      const removed = await call('DELETE', `components?id=eq.${ID.spareComponent}`, editor);
      expect(removed.status, removed.text).toBe(204);
      const left = await server.pool.query(`select 1 from config_component_relationships where component_id = $1`, [ID.spareComponent]);
      expect(left.rowCount).toBe(0);
    });
  });

  describe('permissions', () => {
    const READS = [
      'configs', 'config_detail', 'config_names', 'config_tags', 'config_labels', 'config_types', 'config_statuses',
      'config_analysis_analyzers', 'change_types', 'config_analysis', 'config_analysis_items', 'analysis_by_component',
      'changes_by_component', 'config_changes', 'config_component_relationships', 'config_relationships',
      'check_summary_for_config', 'related_configs', `rpc/related_configs_recursive?config_id=${ID.svcA}`,
    ];

    it('lets a viewer read every catalog relation and function', async () => {
      for (const path of READS) {
        const reply = await call('GET', path.includes('?') ? `${path}&limit=1` : `${path}?limit=1`, viewer);
        expect({ path, status: reply.status }).toEqual({ path, status: 200 });
      }
    });

    it('answers 401 to an anonymous caller on every catalog relation and function', async () => {
      for (const path of READS) {
        const reply = await call('GET', path, '');
        expect({ path, status: reply.status, code: reply.json.code }).toEqual({ path, status: 401, code: 'OD401' });
      }
    });
  });
});
