import type pg from 'pg';
import { formatMention, logEvidenceLineIndexes } from '@opsdeck/shared';
import { DEMO_TOPOLOGY_NAME, seedTopologyDemo } from './topology';

export interface IncidentsDemoContext {
  peopleByRole: Record<string, string>;
  teamIds: string[];
}

interface Linked {
  checkHealthy: string;
  checkFailing: string;
  component: string;
  componentHealthy: string;
  config: string;
  analysis: string;
  change: string;
}

async function one(client: pg.PoolClient, sql: string, values: unknown[] = []): Promise<string> {
  const result = await client.query<{ id: string }>(sql, values);
  const id = result.rows[0]?.id;
  if (id === undefined) throw new Error(`seed statement returned no id: ${sql.slice(0, 60)}`);
  return id;
}

async function existing(client: pg.PoolClient, sql: string): Promise<string | null> {
  return (await client.query<{ id: string }>(sql)).rows[0]?.id ?? null;
}

/** A component of the demo topology by name, building the demo topologies first when they are not there. */
async function demoComponent(client: pg.PoolClient, name: string): Promise<string> {
  const find = async (): Promise<string | null> =>
    (
      await client.query<{ id: string }>(
        `select c.id from components c join topologies t on t.id = c.topology_id
          where t.name = $1 and t.deleted_at is null and c.name = $2 and c.deleted_at is null
          order by c.created_at limit 1`,
        [DEMO_TOPOLOGY_NAME, name],
      )
    ).rows[0]?.id ?? null;
  const found = await find();
  if (found !== null) return found;
  await seedTopologyDemo(client, null);
  const built = await find();
  if (built === null) throw new Error(`the demo topology has no component named ${name}`);
  return built;
}

/** Uses what other seeds created when it is there; otherwise creates the few items incident evidence points at. */
async function linkedItems(client: pg.PoolClient): Promise<Linked> {
  let checkHealthy = await existing(client, `select id from checks where deleted_at is null and status = 'healthy' order by name limit 1`);
  let checkFailing = await existing(client, `select id from checks where deleted_at is null and status = 'unhealthy' order by name limit 1`);
  if (checkHealthy === null || checkFailing === null) {
    const canary = await one(client, `insert into canaries (name, namespace, description) values ('incident-probes', 'shop', 'Probes behind the demo incidents') returning id`);
    checkHealthy ??= await one(
      client,
      `insert into checks (canary_id, type, name, namespace, icon, endpoint, status, last_runtime, last_transition_time)
       values ($1, 'http', 'payments-api', 'shop', 'http', 'https://payments.shop.local/healthz', 'healthy', now(), now() - interval '2 hours') returning id`,
      [canary],
    );
    checkFailing ??= await one(
      client,
      `insert into checks (canary_id, type, name, namespace, icon, endpoint, status, last_runtime, last_transition_time)
       values ($1, 'http', 'checkout-latency', 'shop', 'http', 'https://shop.local/checkout', 'unhealthy', now(), now() - interval '40 minutes') returning id`,
      [canary],
    );
  }
  const component = await demoComponent(client, 'checkout');
  const componentHealthy = await demoComponent(client, 'payments-db');
  let config = await existing(client, `select id from config_items where deleted_at is null order by type, name limit 1`);
  config ??= await one(
    client,
    `insert into config_items (type, config_class, name, status, health, ready, labels, config, format)
     values ('Kubernetes::Pod', 'Kubernetes', 'checkout-7d9f6c', 'Running', 'unhealthy', false, '{"app":"checkout","namespace":"shop"}',
             '{"spec":{"containers":[{"name":"checkout","image":"shop/checkout:2.14.0","resources":{"limits":{"memory":"512Mi"}}}]}}', 'yaml') returning id`,
  );
  let analysis = await existing(client, `select id from config_analysis order by first_observed desc limit 1`);
  analysis ??= await one(
    client,
    `insert into config_analysis (config_id, analyzer, analysis_type, severity, status, summary, message)
     values ($1, 'memory-limit', 'reliability', 'high', 'open', 'Container memory limit too low', 'checkout was OOM-killed 4 times in 1h') returning id`,
    [config],
  );
  let change = await existing(client, `select id from config_changes order by created_at desc limit 1`);
  change ??= await one(
    client,
    `insert into config_changes (config_id, change_type, severity, source, summary) values ($1, 'diff', 'medium', 'kubernetes', 'image shop/checkout:2.13.2 → 2.14.0') returning id`,
    [config],
  );
  return { checkHealthy, checkFailing, component, componentHealthy, config, analysis, change };
}

async function actAs(client: pg.PoolClient, personId: string | undefined): Promise<void> {
  await client.query(`select set_config('opsdeck.person_id', $1, false)`, [personId ?? '']);
}

interface HypothesisSeed {
  title: string;
  type: 'root' | 'factor' | 'solution';
  status: string;
  children?: HypothesisSeed[];
}

async function hypothesisTree(client: pg.PoolClient, incident: string, author: string | undefined, seeds: HypothesisSeed[], parent: string | null = null): Promise<string[]> {
  const ids: string[] = [];
  for (const seed of seeds) {
    const id = await one(client, `insert into hypotheses (incident_id, parent_id, title, type, status, created_by) values ($1, $2, $3, $4, 'possible', $5) returning id`, [
      incident,
      parent,
      seed.title,
      seed.type,
      author,
    ]);
    if (seed.status !== 'possible') await client.query('update hypotheses set status = $2 where id = $1', [id, seed.status]);
    ids.push(id, ...(await hypothesisTree(client, incident, author, seed.children ?? [], id)));
  }
  return ids;
}

const LOG_LINES = [
  '10:41:58 INFO  checkout  request id=8f2 path=/cart 200 182ms',
  '10:41:59 INFO  checkout  request id=8f3 path=/cart 200 201ms',
  '10:42:00 WARN  checkout  pool wait 850ms (active=50 idle=0)',
  '10:42:01 INFO  checkout  request id=8f4 path=/checkout 200 1930ms',
  '10:42:02 ERROR checkout  timeout acquiring connection after 2000ms',
  '10:42:02 ERROR checkout  POST /checkout 503 2004ms',
  '10:42:03 WARN  checkout  pool wait 1200ms (active=50 idle=0)',
  '10:42:04 INFO  checkout  request id=8f7 path=/cart 200 240ms',
  '10:42:05 INFO  checkout  request id=8f8 path=/cart 200 199ms',
  '10:42:06 INFO  checkout  health ok',
];

/** A log line of spec 000 §3 from a demo line: its time, its message and the level and service as labels. */
function logLine(text: string): { timestamp: string; message: string; labels: Record<string, string> } {
  const [time = '', level = '', service = '', ...message] = text.split(/\s+/);
  return { timestamp: `2024-05-01T${time}Z`, message: message.join(' '), labels: { level: level.toLowerCase(), service } };
}

/**
 * Demo incidents in every state: hypothesis trees, evidence of all seven types (with automatic and manual definitions
 * of done), comments with mentions, responders of several types and a changelog written by the triggers. Responders
 * are seeded as already notified, so no demo email or Jira issue is sent.
 */
export async function seedIncidentsDemo(client: pg.PoolClient, ctx: IncidentsDemoContext): Promise<void> {
  const commander = ctx.peopleByRole.commander;
  const responder = ctx.peopleByRole.responder;
  const admin = ctx.peopleByRole.admin;
  const names = new Map<string, string>();
  for (const row of (await client.query<{ id: string; name: string }>('select id, name from people where id = any ($1::uuid[])', [Object.values(ctx.peopleByRole)])).rows) {
    names.set(row.id, row.name);
  }
  const mention = (id: string | undefined): string => (id === undefined ? '' : formatMention({ name: names.get(id) ?? 'someone', id }));
  const team = ctx.teamIds[0];
  const secondTeam = ctx.teamIds[1] ?? team;
  const linked = await linkedItems(client);
  const responders: string[] = [];

  if (team !== undefined) {
    await client.query(
      `update teams set spec = spec || jsonb_build_object('responder_clients', $2::jsonb) where id = $1 and not (spec ? 'responder_clients')`,
      [
        team,
        JSON.stringify({
          email: { connection: 'default/smtp', defaults: { to: 'platform-oncall@example.com' } },
          jira: { connection: 'default/jira', linkUrl: 'https://jira.example.com/browse/{key}', defaults: { project: 'OPS', issueType: 'Incident', priority: 'High' } },
        }),
      ],
    );
  }

  try {
    // 1. Investigating, with every evidence type and both kinds of definition of done.
    await actAs(client, commander);
    const checkout = await one(
      client,
      `insert into incidents (title, description, type, severity, status, created_by, commander_id, communicator_id, created_at)
       values ('Checkout latency above SLO', 'p95 of POST /checkout above 2s since 10:40 UTC; some orders fail with 503.', 'performance', 'high', 'open', $1, $1, $2, now() - interval '3 hours') returning id`,
      [commander, responder],
    );
    const [pool, slowQueries, addIndex, cdn] = await hypothesisTree(client, checkout, commander, [
      {
        title: 'Database connection pool exhausted',
        type: 'root',
        status: 'likely',
        children: [{ title: 'Slow queries after the 2.14.0 deploy', type: 'factor', status: 'proven', children: [{ title: 'Add an index on orders.created_at', type: 'solution', status: 'possible' }] }],
      },
      { title: 'CDN misconfiguration', type: 'root', status: 'disproven' },
    ]);
    const selected = [4, 5];
    const kept = logEvidenceLineIndexes(LOG_LINES.length, selected);
    await client.query(
      `insert into evidences (hypothesis_id, type, description, evidence, created_by) values ($1, 'log', 'Pool timeouts in checkout logs', $2, $3)`,
      [
        pool,
        JSON.stringify({
          lines: kept.map((i) => logLine(LOG_LINES[i] ?? '')),
          // Positions among the kept lines, as the add-evidence wizard stores them.
          selected_lines: kept.flatMap((i, position) => (selected.includes(i) ? [position] : [])),
          start: '1h',
          includeMessages: true,
          comment: 'Timeouts start at 10:42',
        }),
        commander,
      ],
    );
    await client.query(`insert into evidences (hypothesis_id, type, description, check_id, definition_of_done, created_by) values ($1, 'check', 'checkout-latency back under SLO', $2, true, $3)`, [
      pool,
      linked.checkFailing,
      commander,
    ]);
    await client.query(
      `insert into evidences (hypothesis_id, type, description, component_id, definition_of_done, script, created_by) values ($1, 'topology', 'checkout component healthy', $2, true, 'status == healthy', $3)`,
      [pool, linked.component, responder],
    );
    await client.query(
      `insert into evidences (hypothesis_id, type, description, config_id, evidence, created_by) values ($1, 'config', 'Memory limit of the checkout pod', $2, $3, $4)`,
      [slowQueries, linked.config, JSON.stringify({ lines: ['resources:', '  limits:', '    memory: 512Mi'], selected_lines: [2], configName: 'checkout-7d9f6c', id: linked.config }), responder],
    );
    await client.query(
      `insert into evidences (hypothesis_id, type, description, config_analysis_id, definition_of_done, script, created_by) values ($1, 'config_analysis', 'OOM analysis resolved', $2, true, 'status == resolved', $3)`,
      [slowQueries, linked.analysis, responder],
    );
    await client.query(`insert into evidences (hypothesis_id, type, description, config_change_id, created_by) values ($1, 'config_change', 'Deploy of 2.14.0 right before the alert', $2, $3)`, [
      slowQueries,
      linked.change,
      commander,
    ]);
    await client.query(
      `insert into evidences (hypothesis_id, type, description, evidence, definition_of_done, created_by) values ($1, 'comment', 'Index created and query plan verified', $2, true, $3)`,
      [addIndex, JSON.stringify({ comment: 'Index created and query plan verified' }), commander],
    );
    await client.query(`insert into evidences (hypothesis_id, type, description, check_id, created_by) values ($1, 'check', 'CDN checks green throughout', $2, $3)`, [cdn, linked.checkHealthy, responder]);
    await client.query(`insert into comments (incident_id, hypothesis_id, comment, created_by) values ($1, $2, $3, $4)`, [
      checkout,
      pool,
      `${mention(responder)} can you pull the slow query log for orders?`,
      commander,
    ]);
    await client.query(`insert into comments (incident_id, hypothesis_id, comment, created_by) values ($1, $2, $3, $4)`, [
      checkout,
      slowQueries,
      `Found it: the new report query scans orders. ${mention(commander)} proposing an index.`,
      responder,
    ]);
    await client.query(`insert into comments (incident_id, hypothesis_id, comment, created_by) values ($1, $2, 'CDN hit ratio is normal, ruling it out.', $3)`, [checkout, cdn, responder]);
    responders.push(await one(client, `insert into responders (incident_id, type, person_id, created_by, acknowledge_time) values ($1, 'person', $2, $3, now() - interval '150 minutes') returning id`, [checkout, responder, commander]));
    if (team !== undefined) {
      responders.push(
        await one(
          client,
          `insert into responders (incident_id, type, team_id, properties, created_by, acknowledge_time) values ($1, 'system', $2, $3, $4, now() - interval '2 hours') returning id`,
          [checkout, team, JSON.stringify({ responderType: 'email', to: 'platform-oncall@example.com', subject: 'Checkout latency above SLO', body: 'Please join the incident.', sent_at: new Date().toISOString() }), commander],
        ),
      );
    }
    await client.query(`update incidents set status = 'investigating' where id = $1`, [checkout]);

    // 2. Resolved, with a Jira responder that has its issue key.
    await actAs(client, responder);
    const payments = await one(
      client,
      `insert into incidents (title, description, type, severity, status, created_by, commander_id, created_at)
       values ('Payment provider returning 502', 'Card payments failed for 18 minutes.', 'availability', 'critical', 'open', $1, $2, now() - interval '2 days') returning id`,
      [responder, commander],
    );
    const [provider] = await hypothesisTree(client, payments, responder, [
      { title: 'Provider outage in eu-west', type: 'root', status: 'proven', children: [{ title: 'No failover to the secondary provider', type: 'factor', status: 'likely' }] },
    ]);
    await client.query(`insert into evidences (hypothesis_id, type, description, check_id, definition_of_done, done, created_by) values ($1, 'check', 'payments-api healthy for 5 minutes', $2, true, true, $3)`, [
      provider,
      linked.checkHealthy,
      responder,
    ]);
    await client.query(`insert into comments (incident_id, hypothesis_id, comment, created_by) values ($1, $2, $3, $4)`, [
      payments,
      provider,
      `Status page confirms the outage. ${mention(admin)} FYI for the vendor review.`,
      responder,
    ]);
    if (secondTeam !== undefined) {
      responders.push(
        await one(
          client,
          `insert into responders (incident_id, type, team_id, external_id, properties, created_by, acknowledge_time, signoff_time, close_time)
           values ($1, 'system', $2, 'OPS-101', $3, $4, now() - interval '47 hours', now() - interval '46 hours', now() - interval '45 hours') returning id`,
          [
            payments,
            secondTeam,
            JSON.stringify({ responderType: 'jira', project: 'OPS', issueType: 'Incident', priority: 'Highest', summary: 'Payment provider returning 502', description: 'Track the vendor follow-up', instance: 'default/jira', link: 'https://jira.example.com/browse/OPS-101' }),
            responder,
          ],
        ),
      );
    }
    for (const status of ['investigating', 'mitigated', 'resolved']) await client.query('update incidents set status = $2 where id = $1', [payments, status]);

    // 3. Open, fresh.
    await actAs(client, commander);
    const disk = await one(
      client,
      `insert into incidents (title, description, type, severity, status, created_by, commander_id, created_at) values ('Disk usage growing on db-2', 'Volume at 81%, growing 2% an hour.', 'reliability', 'medium', 'open', $1, $1, now() - interval '30 minutes') returning id`,
      [commander],
    );
    const [diskRoot] = await hypothesisTree(client, disk, commander, [{ title: 'WAL not archived', type: 'root', status: 'possible' }]);
    await client.query(`insert into evidences (hypothesis_id, type, description, component_id, created_by) values ($1, 'topology', 'payments database component', $2, $3)`, [
      diskRoot,
      linked.componentHealthy,
      commander,
    ]);
    if (team !== undefined) {
      responders.push(
        await one(
          client,
          `insert into responders (incident_id, type, team_id, properties, created_by) values ($1, 'system', $2, $3, $4) returning id`,
          [disk, team, JSON.stringify({ responderType: 'ms_planner', plan_id: 'plan-ops', bucket_id: 'bucket-db', priority: 'important', title: 'Disk usage on db-2', description: 'Check WAL archiving', instance: 'default/planner' }), commander],
        ),
      );
    }

    // 4. Closed cost incident.
    await actAs(client, admin);
    const spend = await one(
      client,
      `insert into incidents (title, type, severity, status, created_by, commander_id, created_at) values ('Unexpected AWS spend in staging', 'cost', 'low', 'open', $1, $2, now() - interval '9 days') returning id`,
      [admin, commander],
    );
    const [spendRoot] = await hypothesisTree(client, spend, admin, [{ title: 'Forgotten load-test cluster', type: 'root', status: 'proven' }]);
    await client.query(`insert into comments (incident_id, hypothesis_id, comment, created_by) values ($1, $2, 'Cluster deleted, spend back to baseline.', $3)`, [spend, spendRoot, admin]);
    responders.push(
      team === undefined
        ? await one(client, `insert into responders (incident_id, type, person_id, created_by) values ($1, 'person', $2, $2) returning id`, [spend, admin])
        : await one(client, `insert into responders (incident_id, type, team_id, properties, created_by) values ($1, 'system', $2, $3, $4) returning id`, [
            spend,
            team,
            JSON.stringify({ responderType: 'aws_support' }),
            admin,
          ]),
    );
    await client.query(`update incidents set status = 'closed' where id = $1`, [spend]);

    // 5. New, not triaged yet; 6. mitigated.
    await actAs(client, responder);
    await one(client, `insert into incidents (title, type, severity, status, created_by, created_at) values ('TLS certificate for api.shop.local expires in 7 days', 'security', 'medium', 'new', $1, now() - interval '10 minutes') returning id`, [responder]);
    const scan = await one(
      client,
      `insert into incidents (title, type, severity, status, created_by, commander_id, created_at) values ('Compliance scan: public S3 bucket', 'compliance', 'blocker', 'open', $1, $2, now() - interval '20 hours') returning id`,
      [responder, commander],
    );
    const [bucket] = await hypothesisTree(client, scan, responder, [{ title: 'Bucket policy changed by Terraform', type: 'root', status: 'likely' }]);
    await client.query(`insert into evidences (hypothesis_id, type, description, config_change_id, created_by) values ($1, 'config_change', 'Policy change in the last apply', $2, $3)`, [
      bucket,
      linked.change,
      responder,
    ]);
    responders.push(
      secondTeam === undefined
        ? await one(client, `insert into responders (incident_id, type, person_id, created_by) values ($1, 'person', $2, $2) returning id`, [scan, responder])
        : await one(client, `insert into responders (incident_id, type, team_id, properties, created_by) values ($1, 'system', $2, $3, $4) returning id`, [
            scan,
            secondTeam,
            JSON.stringify({ responderType: 'vmware', product: 'NSX', category: 'Security', description: 'Review the edge policy', body: 'See INC for details' }),
            responder,
          ]),
    );
    await client.query(`update incidents set status = 'mitigated' where id = $1`, [scan]);
  } finally {
    await actAs(client, undefined);
  }
  // Demo responders stand for notifications that already went out.
  await client.query(`delete from event_queue where name = 'responder.created' and properties ->> 'id' = any ($1::text[])`, [responders]);
  // Incident rules (issue #19): the check rule watches checks labelled app=checkout, which no demo check carries, and
  // the alert rule opens an incident only for a critical alert, which arrives only when someone posts one to
  // /api/alerts/*. So a fresh demo shows both rules but opens no incident by itself on each start; the first incident a
  // rule opens is one the user caused (docs/incident-rules.md walks through it).
  await client.query(`insert into incident_rules (name, labels, spec, created_by) values ($1, $2, $3, $4), ($5, $6, $7, $4)`, [
    'Checkout checks failing',
    JSON.stringify({ team: 'platform' }),
    JSON.stringify({
      sources: ['check'],
      filter: "check.status == 'unhealthy' && check.labels.app == 'checkout'",
      incident: { title: 'Checkout checks failing', type: 'availability', severity: 'high' },
      responders: { teams: ['Platform'] },
    }),
    admin ?? null,
    'Critical alerts page the on-call',
    JSON.stringify({ team: 'platform' }),
    JSON.stringify({
      sources: ['alert'],
      filter: "alert.severity == 'critical'",
      incident: {
        title: '{{ alert.name }} is firing',
        type: 'availability',
        severity: 'critical',
        description: "{{ alert.annotations.summary | default: alert.name }}",
      },
      groupBy: ['alert.labels.alertname'],
      groupWindow: '30m',
      autoResolve: true,
      responders: { people: ['responder@opsdeck.local'] },
    }),
  ]);
  // Alerts as Alertmanager would have sent them: warnings, below the rule's critical threshold, so they open nothing.
  await client.query(
    `insert into alerts (fingerprint, source, name, status, severity, labels, annotations, starts_at, ends_at, generator_url,
                         first_received_at, last_received_at, status_changed_at, count)
     values ('demo-disk-will-fill', 'alertmanager', 'DiskWillFillIn4Hours', 'firing', 'warning',
             '{"alertname":"DiskWillFillIn4Hours","severity":"warning","instance":"db-2:9100","job":"node"}',
             '{"summary":"Disk on db-2 will fill within 4 hours at the current rate"}',
             now() - interval '35 minutes', null, 'http://prometheus.shop.local:9090/graph?g0.expr=predict_linear',
             now() - interval '35 minutes', now() - interval '5 minutes', now() - interval '35 minutes', 7),
            ('demo-cert-expiry', 'alertmanager', 'CertificateExpiresSoon', 'resolved', 'warning',
             '{"alertname":"CertificateExpiresSoon","severity":"warning","instance":"api.shop.local:443","job":"blackbox"}',
             '{"summary":"TLS certificate of api.shop.local expires in 7 days"}',
             now() - interval '2 days', now() - interval '1 day', 'http://prometheus.shop.local:9090/graph?g0.expr=probe_ssl_earliest_cert_expiry',
             now() - interval '2 days', now() - interval '1 day', now() - interval '1 day', 24)
     on conflict (fingerprint) do nothing`,
  );
}
