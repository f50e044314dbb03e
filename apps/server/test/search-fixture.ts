/**
 * Rows of every kind the search covers, all named around the made-up word `qzxgate` so that the demo data never
 * matches, for the search tests (issue #19 item 3). One per ranking tier, plus deleted ones and SQL-looking names.
 */
export const SEARCH_ID = {
  canary: '00000000-0000-4000-8000-0000000051a1',
  configExact: '00000000-0000-4000-8000-0000000051b1',
  configGone: '00000000-0000-4000-8000-0000000051b2',
  configPercent: '00000000-0000-4000-8000-0000000051b3',
  checkPrefix: '00000000-0000-4000-8000-0000000051c1',
  checkGone: '00000000-0000-4000-8000-0000000051c2',
  checkQuote: '00000000-0000-4000-8000-0000000051c3',
  checkHealthyWord: '00000000-0000-4000-8000-0000000051c4',
  checkUnhealthyWord: '00000000-0000-4000-8000-0000000051c5',
  componentWord: '00000000-0000-4000-8000-0000000051d1',
  componentGone: '00000000-0000-4000-8000-0000000051d2',
  incidentOpen: '00000000-0000-4000-8000-0000000051e1',
  incidentResolved: '00000000-0000-4000-8000-0000000051e2',
  playbookWord: '00000000-0000-4000-8000-0000000051f1',
  playbookGone: '00000000-0000-4000-8000-0000000051f2',
} as const;

export const QUOTE_NAME = `qzx'); drop table checks; --`;

const I = SEARCH_ID;

export const SEARCH_FIXTURE_SQL = `
  insert into canaries (id, name, namespace, spec) values ('${I.canary}', 'qzx-canary', 'search', '{}');
  insert into config_items (id, type, config_class, name, health, deleted_at) values
    ('${I.configExact}', 'SearchTest::Gateway', 'SearchTest', 'qzxgate', 'healthy', null),
    ('${I.configGone}', 'SearchTest::Gateway', 'SearchTest', 'qzxgate-gone', 'healthy', now()),
    ('${I.configPercent}', 'SearchTest::Gateway', 'SearchTest', 'qzx 100% done', 'healthy', null);
  insert into checks (id, canary_id, type, name, status, deleted_at, updated_at) values
    ('${I.checkPrefix}', '${I.canary}', 'http', 'qzxgate-eu', 'healthy', null, now()),
    ('${I.checkGone}', '${I.canary}', 'http', 'qzxgate-old', 'healthy', now(), now()),
    ('${I.checkQuote}', '${I.canary}', 'http', $$${QUOTE_NAME}$$, 'healthy', null, now()),
    -- Same tier (a word of the name starts with qzxwing): the unhealthy one first although it changed longer ago.
    ('${I.checkHealthyWord}', '${I.canary}', 'tcp', 'east-qzxwing', 'healthy', null, now()),
    ('${I.checkUnhealthyWord}', '${I.canary}', 'tcp', 'west-qzxwing', 'unhealthy', null, now() - interval '3 days');
  insert into components (id, name, type, status, deleted_at) values
    ('${I.componentWord}', 'eu-qzxgate', 'Service', 'healthy', null),
    ('${I.componentGone}', 'qzxgate-retired', 'Service', 'healthy', now());
  insert into incidents (id, title, status, created_at) values
    ('${I.incidentOpen}', 'Outage of myqzxgateway', 'open', now() - interval '2 days'),
    ('${I.incidentResolved}', 'Slow myqzxgateway', 'resolved', now());
  insert into playbooks (id, name, title, deleted_at) values
    ('${I.playbookWord}', 'restart-qzxgate-pods', 'Restart qzxgate pods', null),
    ('${I.playbookGone}', 'qzxgate-legacy', null, now());
`;
