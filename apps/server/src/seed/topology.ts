import type pg from 'pg';
import { DEFAULT_TOPOLOGY_SCHEDULE, runTopology, type TopologyRow, type TopologyRunOutcome } from '../modules/topology';

/** The demo shop's topology; the demo incidents point at its components by name. */
export const DEMO_TOPOLOGY_NAME = 'Shop';

const CLUSTER = { cluster: 'prod-eu' };

/** The pods of one Deployment, looked up from the catalog, each with properties read from its manifest. */
function podsOf(app: string, namespace: string): Record<string, unknown> {
  return {
    lookup: { catalog: [{ types: ['Kubernetes::Pod'], tags: { ...CLUSTER, namespace }, labelSelector: `app=${app}` }] },
    forEach: {
      type: 'Pod',
      icon: 'k8s-pod',
      properties: [
        { name: 'image', label: 'Image', type: 'text', configLookup: { field: '$.spec.containers[0].image' } },
        { name: 'node', label: 'Node', type: 'text', configLookup: { field: '$.spec.nodeName' } },
        { name: 'restarts', label: 'Restarts', type: 'number', max: 10, headline: true, configLookup: { field: '$.status.containerStatuses[0].restartCount' } },
      ],
    },
  };
}

interface ServiceOptions {
  owner: string;
  properties?: Record<string, unknown>[];
}

/** A service: its Deployment and Service from the catalog, its replica count from the Deployment, and its pods. */
function service(app: string, namespace: string, options: ServiceOptions): Record<string, unknown> {
  const where = { ...CLUSTER, namespace };
  return {
    name: app,
    type: 'Service',
    icon: 'service',
    owner: options.owner,
    labels: { app, namespace },
    configs: [{ types: ['Kubernetes::Deployment', 'Kubernetes::Service'], name: app, tags: where }],
    properties: [
      {
        name: 'replicas',
        label: 'Replicas',
        type: 'number',
        headline: true,
        configLookup: { config: { types: ['Kubernetes::Deployment'], name: app, tags: where }, field: '$.spec.replicas' },
      },
      ...(options.properties ?? []),
    ],
    components: [podsOf(app, namespace)],
  };
}

/**
 * The Shop: the prod-eu cluster and its namespaces, services and pods from the catalog demo, its nodes looked up (one
 * of them warning), the payments database, and the failing backup and network checks under Operations. Between them
 * the cards show every state, team owners, properties of every kind and, through the demo incidents, incident
 * summaries.
 */
function shopSpec(): Record<string, unknown> {
  return {
    type: 'Application',
    icon: 'cart',
    owner: 'Platform',
    schedule: DEFAULT_TOPOLOGY_SCHEDULE,
    labels: { env: 'production' },
    properties: [{ name: 'slo', label: 'Availability SLO', type: 'text', text: '99.9%', headline: true }],
    components: [
      {
        name: 'prod-eu',
        type: 'KubernetesCluster',
        icon: 'kubernetes',
        owner: 'Platform',
        labels: { ...CLUSTER, provider: 'eks' },
        configs: [{ types: ['Kubernetes::Cluster'], name: 'prod-eu' }],
        properties: [
          {
            name: 'version',
            label: 'Version',
            type: 'text',
            configLookup: { config: { types: ['Kubernetes::Cluster'], name: 'prod-eu' }, field: '$.version' },
          },
          { name: 'region', label: 'Region', type: 'text', text: 'eu-west-1' },
        ],
        components: [
          {
            name: 'shop',
            type: 'Namespace',
            icon: 'namespace',
            owner: 'Edge',
            configs: [{ types: ['Kubernetes::Namespace'], name: 'shop', tags: CLUSTER }],
            components: [
              service('checkout', 'shop', {
                owner: 'Edge',
                properties: [
                  { name: 'p95', label: 'p95 latency', type: 'number', value: 2140, unit: 'ms', max: 2000, headline: true },
                  {
                    name: 'dashboard',
                    label: 'Dashboard',
                    type: 'url',
                    links: [{ type: 'url', url: 'https://grafana.shop.local/d/checkout', text: 'Grafana', icon: 'grafana' }],
                  },
                ],
              }),
              service('cart', 'shop', { owner: 'Edge' }),
              service('frontend', 'shop', { owner: 'Edge' }),
            ],
          },
          {
            name: 'payments',
            type: 'Namespace',
            icon: 'namespace',
            owner: 'Database Reliability',
            configs: [{ types: ['Kubernetes::Namespace'], name: 'payments', tags: CLUSTER }],
            components: [
              service('payments-api', 'payments', { owner: 'Database Reliability' }),
              service('ledger', 'payments', { owner: 'Database Reliability' }),
            ],
          },
          {
            name: 'Nodes',
            type: 'NodeGroup',
            icon: 'server',
            lookup: { catalog: [{ types: ['Kubernetes::Node'], tags: CLUSTER }] },
            forEach: {
              type: 'Node',
              icon: 'server',
              properties: [
                { name: 'kubelet', label: 'Kubelet', type: 'text', configLookup: { field: '$.status.nodeInfo.kubeletVersion' } },
                { name: 'cpu', label: 'CPU', type: 'number', unit: 'cores', headline: true, configLookup: { field: '$.status.capacity.cpu' } },
              ],
            },
          },
        ],
      },
      {
        name: 'payments-db',
        type: 'Database',
        icon: 'postgres',
        owner: 'Database Reliability',
        configs: [{ types: ['AWS::RDS::DBInstance'], name: 'payments-db' }],
        properties: [{ name: 'engine', label: 'Engine', type: 'text', text: 'PostgreSQL 15' }],
      },
      {
        name: 'Operations',
        type: 'Group',
        icon: 'group',
        owner: 'Database Reliability',
        components: [
          {
            name: 'Backups',
            type: 'Job',
            icon: 'disk',
            owner: 'Database Reliability',
            checks: [{ selector: { name: 'backup/nightly-job' } }, { selector: { name: 'backup/archive-folder' } }],
            configs: [{ types: ['AWS::S3::Bucket'], name: 'opsdeck-backups' }],
          },
          {
            name: 'Network',
            type: 'Network',
            icon: 'network',
            owner: 'Edge',
            checks: [{ selector: { name: 'network/legacy-service' } }, { selector: { name: 'network/loopback' } }],
          },
        ],
      },
    ],
  };
}

/** The console itself: a second, mostly healthy topology so the roots page has more than one card. */
function platformSpec(): Record<string, unknown> {
  return {
    type: 'Platform',
    icon: 'kubernetes',
    owner: 'Platform',
    schedule: DEFAULT_TOPOLOGY_SCHEDULE,
    components: [
      {
        name: 'opsdeck',
        type: 'Service',
        icon: 'http',
        owner: 'Platform',
        checks: [{ selector: { name: 'opsdeck/healthz' } }, { selector: { name: 'opsdeck/version' } }, { selector: { name: 'opsdeck/port' } }],
        configs: [{ types: ['Kubernetes::Deployment'], name: 'opsdeck', tags: CLUSTER }],
      },
      {
        name: 'opsdeck-db',
        type: 'Database',
        icon: 'postgres',
        owner: 'Database Reliability',
        checks: [{ selector: { name: 'database/reachable' } }],
        configs: [{ types: ['AWS::RDS::DBInstance'], name: 'opsdeck-db' }],
      },
      {
        name: 'monitoring',
        type: 'Namespace',
        icon: 'namespace',
        owner: 'Platform',
        configs: [{ types: ['Kubernetes::Deployment'], tags: { ...CLUSTER, namespace: 'monitoring' } }],
      },
    ],
  };
}

const DEMO_TOPOLOGIES = [
  { name: DEMO_TOPOLOGY_NAME, namespace: 'shop', icon: 'cart', labels: { env: 'production' }, spec: shopSpec },
  { name: 'Platform', namespace: 'default', icon: 'kubernetes', labels: { env: 'production' }, spec: platformSpec },
] as const;

/**
 * Creates the demo topologies (once) and builds them, on the seed's client inside its transaction. Each has its
 * schedule row, so the scheduler does not rebuild it the moment it starts. Returns null when they exist already.
 */
export async function seedTopologyDemo(client: pg.PoolClient, createdBy: string | null): Promise<TopologyRunOutcome[] | null> {
  const existing = await client.query('select 1 from topologies where name = $1 and deleted_at is null', [DEMO_TOPOLOGY_NAME]);
  if ((existing.rowCount ?? 0) > 0) return null;
  for (const topology of DEMO_TOPOLOGIES) {
    await client.query(
      `with t as (
         insert into topologies (name, namespace, icon, labels, spec, schedule, created_by)
         values ($1, $2, $3, $4, $5, $6, $7) returning id, updated_at
       )
       insert into topologies_schedule (topology_id, topology_updated_at, next_runtime)
       select id, updated_at, now() + interval '5 minutes' from t`,
      [topology.name, topology.namespace, topology.icon, JSON.stringify(topology.labels), JSON.stringify(topology.spec()), DEFAULT_TOPOLOGY_SCHEDULE, createdBy],
    );
  }
  return rebuildTopologyDemo(client);
}

/** Builds the demo topologies again: after the catalog demo exists, its lookups and selectors find their items. */
export async function rebuildTopologyDemo(client: pg.PoolClient): Promise<TopologyRunOutcome[]> {
  const rows = await client.query<TopologyRow>(
    `select id, name, namespace, icon, labels, spec, schedule, agent_id from topologies
      where name = any ($1::text[]) and deleted_at is null order by name`,
    [DEMO_TOPOLOGIES.map((topology) => topology.name)],
  );
  const outcomes: TopologyRunOutcome[] = [];
  for (const row of rows.rows) outcomes.push(await runTopology(client, row));
  return outcomes;
}
