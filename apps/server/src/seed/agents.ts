import type pg from 'pg';
import { hashToken } from '../auth/shared/session-token';
import { syncCanaryChecks } from '../modules/health';
import { newAgentToken } from '../modules/agents';

interface DemoAgentResources {
  /** HTTP checks of the agent's one canary, by name and URL. */
  checks: { name: string; url: string }[];
  /** Config items its scraper reported, by type and name. */
  configs: { type: string; name: string }[];
}

export interface DemoAgent {
  name: string;
  description: string;
  hostname: string;
  version: string;
  properties: Record<string, string>;
  /** How long ago it last pushed, in minutes; null for an agent that never connected. */
  lastSeenMinutesAgo: number | null;
  resources: DemoAgentResources | null;
}

/**
 * Spec 001 §2.6: the agents list needs agents with counts and both statuses of the past. All three are Offline, as
 * no agent of the demo really runs: one pushed three hours ago, one twenty hours ago and one never connected.
 */
export const DEMO_AGENTS: readonly DemoAgent[] = [
  {
    name: 'edge-eu-west',
    description: 'Edge cluster in the EU West region',
    hostname: 'edge-eu-west-01.internal',
    version: 'v0.9.2',
    properties: { region: 'eu-west-1', env: 'production' },
    lastSeenMinutesAgo: 3 * 60,
    resources: {
      checks: [
        { name: 'eu-west/ingress', url: 'https://ingress.eu-west.example.internal/healthz' },
        { name: 'eu-west/api', url: 'https://api.eu-west.example.internal/healthz' },
        { name: 'eu-west/cdn', url: 'https://cdn.eu-west.example.internal/' },
      ],
      configs: [
        { type: 'Kubernetes::Cluster', name: 'edge-eu-west' },
        { type: 'Kubernetes::Node', name: 'edge-eu-west-node-a' },
        { type: 'Kubernetes::Node', name: 'edge-eu-west-node-b' },
        { type: 'Kubernetes::Namespace', name: 'ingress' },
      ],
    },
  },
  {
    name: 'edge-us-east',
    description: 'Edge cluster in the US East region',
    hostname: 'edge-us-east-01.internal',
    version: 'v0.9.1',
    properties: { region: 'us-east-1', env: 'production' },
    lastSeenMinutesAgo: 20 * 60,
    resources: {
      checks: [
        { name: 'us-east/ingress', url: 'https://ingress.us-east.example.internal/healthz' },
        { name: 'us-east/api', url: 'https://api.us-east.example.internal/healthz' },
      ],
      configs: [
        { type: 'Kubernetes::Cluster', name: 'edge-us-east' },
        { type: 'Kubernetes::Node', name: 'edge-us-east-node-a' },
      ],
    },
  },
  {
    name: 'lab-agent',
    description: 'Registered for the lab, never installed',
    hostname: 'lab.internal',
    version: 'v0.9.2',
    properties: { env: 'lab' },
    lastSeenMinutesAgo: null,
    resources: null,
  },
];

/**
 * Seeds the demo agents with a canary, a config scraper and config items each of them reported (agent_id set). The
 * local schedulers run only rows whose agent_id is null, so none of these is probed or scraped by this server. Their
 * tokens are random and never shown: rotating the token in the editor gives a usable one.
 */
export async function seedAgentsDemo(client: pg.PoolClient, ctx: { adminId: string }): Promise<void> {
  const existing = await client.query('select 1 from agents where name = $1 and deleted_at is null', [DEMO_AGENTS[0]?.name]);
  if ((existing.rowCount ?? 0) > 0) return;

  for (const agent of DEMO_AGENTS) {
    const inserted = await client.query<{ id: string }>(
      `insert into agents (name, description, hostname, version, properties, access_token_hash, last_seen, last_received, created_by)
       values ($1, $2, $3, $4, $5, $6, now() - make_interval(mins => $7::integer), now() - make_interval(mins => $7::integer), $8)
       returning id`,
      [agent.name, agent.description, agent.hostname, agent.version, JSON.stringify(agent.properties), hashToken(newAgentToken()), agent.lastSeenMinutesAgo, ctx.adminId],
    );
    const agentId = inserted.rows[0]?.id;
    if (agentId === undefined) throw new Error('agent insert returned no row');
    if (agent.resources === null) continue;
    await seedAgentResources(client, agent, agent.resources, agentId, ctx.adminId);
  }
}

async function seedAgentResources(client: pg.PoolClient, agent: DemoAgent, resources: DemoAgentResources, agentId: string, adminId: string): Promise<void> {
  const schedule = '@every 5m';
  const canary = await client.query<{ id: string }>(
    `insert into canaries (name, description, icon, labels, schedule, spec, source, agent_id, created_by)
     values ($1, $2, 'http', $3, $4, $5, 'agent', $6, $7) returning id`,
    [
      // Named by region and under an existing team: the health dashboard's demo groups, team tabs and pivot keep their
      // columns, and no group name repeats the agent's.
      `${agent.properties.region ?? agent.name}-probes`,
      'Probes pushed by a remote agent',
      JSON.stringify({ team: 'network', region: agent.properties.region ?? '', env: 'demo' }),
      schedule,
      JSON.stringify({ schedule, http: resources.checks.map((check) => ({ name: check.name, url: check.url, responseCodes: [200] })) }),
      agentId,
      adminId,
    ],
  );
  const canaryId = canary.rows[0]?.id;
  if (canaryId === undefined) throw new Error('canary insert returned no row');
  await syncCanaryChecks(client, canaryId, { reschedule: false });
  // The hourly results the agent pushed over the week before it went quiet, so its checks show a status and history.
  await client.query(
    `with results as (
       insert into check_statuses (check_id, time, status, duration, message)
       select k.id, date_trunc('minute', now()) - make_interval(mins => $2::integer) - make_interval(hours => g), true, 40 + g % 20, 'ok'
         from checks k cross join generate_series(0, 7 * 24) g
        where k.canary_id = $1
       returning check_id
     )
     update checks set status = 'healthy', last_runtime = now() - make_interval(mins => $2::integer)
      where id in (select check_id from results)`,
    [canaryId, agent.lastSeenMinutesAgo ?? 0],
  );

  const scraper = await client.query<{ id: string }>(
    `insert into config_scrapers (name, description, labels, spec, schedule, source, agent_id, created_by)
     values ($1, $2, $3, $4, '@every 30m', 'agent', $5, $6) returning id`,
    [
      `${agent.name}-kubernetes`,
      `The Kubernetes cluster the ${agent.name} agent runs in`,
      JSON.stringify({ env: 'demo' }),
      JSON.stringify({ kubernetes: [{ clusterName: agent.name }] }),
      agentId,
      adminId,
    ],
  );
  const scraperId = scraper.rows[0]?.id;
  if (scraperId === undefined) throw new Error('config scraper insert returned no row');
  for (const config of resources.configs) {
    await client.query(
      `insert into config_items (scraper_id, agent_id, external_id, type, config_class, name, status, health, ready, source, last_scraped_time)
       values ($1, $2, $3, $4, split_part($4, '::', 1), $5, 'Running', 'healthy', true, 'agent', now() - make_interval(mins => $6::integer))`,
      [scraperId, agentId, [`${agent.name}/${config.name}`], config.type, config.name, agent.lastSeenMinutesAgo ?? 0],
    );
  }
}

/** The agent `npm run demo:agent` starts on this machine (#34): one agent of the demo that really runs. */
export const LOCAL_DEMO_AGENT = 'local-demo';
/** Where, in the console's data folder, the demo leaves what `npm run demo:agent` needs: upstream URL and token. */
export const LOCAL_DEMO_AGENT_FILE = 'demo-agent.json';

export interface LocalDemoAgent {
  name: string;
  upstream: string;
  token: string;
}

/**
 * The local demo agent, never connected until `npm run demo:agent` starts it, with work of its own: a canary probing
 * the console's /healthz and /api/version every 30 s, and a file scraper reading the sample configs the script lays
 * out under the agent's scrape folder. Returns its token, which the demo writes beside the database (demo.ts).
 */
export async function seedLocalDemoAgent(client: pg.PoolClient, ctx: { adminId: string; serverUrl: string }): Promise<LocalDemoAgent> {
  const token = newAgentToken();
  const inserted = await client.query<{ id: string }>(
    `insert into agents (name, description, hostname, properties, access_token_hash, created_by)
     values ($1, 'Runs on this machine once started with npm run demo:agent', 'localhost', '{"env": "demo"}', $2, $3) returning id`,
    [LOCAL_DEMO_AGENT, hashToken(token), ctx.adminId],
  );
  const agentId = inserted.rows[0]?.id;
  if (agentId === undefined) throw new Error('agent insert returned no row');
  const schedule = '@every 30s';
  const canary = await client.query<{ id: string }>(
    `insert into canaries (name, description, icon, labels, schedule, spec, agent_id, created_by)
     values ('local-agent-probes', 'Probes of the console run by the local demo agent', 'http', '{"team": "platform", "env": "demo"}', $1, $2, $3, $4)
     returning id`,
    [
      schedule,
      JSON.stringify({
        schedule,
        http: [
          { name: 'local-agent/console-healthz', url: `${ctx.serverUrl}/healthz`, responseCodes: [200] },
          { name: 'local-agent/console-version', url: `${ctx.serverUrl}/api/version`, responseCodes: [200] },
        ],
      }),
      agentId,
      ctx.adminId,
    ],
  );
  const canaryId = canary.rows[0]?.id;
  if (canaryId === undefined) throw new Error('canary insert returned no row');
  await syncCanaryChecks(client, canaryId, { reschedule: false });
  await client.query(
    `insert into config_scrapers (name, description, labels, spec, schedule, agent_id, created_by)
     values ('local-agent-files', 'Sample app configs the local demo agent reads from its scrape folder', '{"env": "demo"}', $1, '@every 1m', $2, $3)`,
    [
      JSON.stringify({
        schedule: '@every 1m',
        file: [{ type: 'App::Config', id: '$.name', name: '$.name', format: 'yaml', icon: 'file', paths: ['demo-agent/*.yaml'] }],
      }),
      agentId,
      ctx.adminId,
    ],
  );
  return { name: LOCAL_DEMO_AGENT, upstream: ctx.serverUrl, token };
}
