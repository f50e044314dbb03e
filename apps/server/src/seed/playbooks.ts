import type pg from 'pg';
import type { PlaybookActionResult, PlaybookActionStatus, PlaybookRunStatus, PlaybookSpec, Role } from '@opsdeck/shared';
import { encryptSecret } from '../platform/secrets';
import { requestPlaybookRun } from '../modules/playbooks';
import { DEMO_INBOX_HOOKS_PATH, DEMO_INBOX_SOURCE } from '../modules/demo-inbox';
import { seededFailure } from './seeded-failure';

export interface PlaybooksDemoContext {
  peopleByRole: Partial<Record<Role, string>>;
  /** Where this server answers: the health playbook calls the console's own /healthz and /api/version. */
  serverUrl: string;
  /** Seals the demo database connection's password, as every stored connection secret is. */
  secretKey: Buffer;
}

/** The first demo playbook's name: the seed does nothing when it exists already. */
export const DEMO_PLAYBOOK_NAME = 'pod-diagnostics';
/** The postgres connection of the sql playbook: a reporting replica that is not the console's own database. */
export const DEMO_SQL_CONNECTION = 'payments-replica';
/** The notification connection of the paging playbook: a generic webhook into the demo inbox (ADR 0085). */
export const DEMO_NOTIFICATION_CONNECTION = 'ops-alerts';

interface DemoPlaybook {
  name: string;
  title: string;
  icon: string;
  description: string;
  category: string | null;
  spec: PlaybookSpec;
}

/**
 * A diagnostic script on pods, exercising parameters of several types; values reach the script only through its
 * environment (PARAM_*, CONFIG_*, and the templated `env`), never inside its text.
 */
function podDiagnostics(): DemoPlaybook {
  return {
    name: DEMO_PLAYBOOK_NAME,
    title: 'Diagnose pod',
    icon: 'k8s-pod',
    description: 'Describes a pod, its recent events and the last lines of its logs',
    category: 'Diagnostics',
    spec: {
      category: 'Diagnostics',
      configs: [{ types: ['Kubernetes::Pod'] }],
      parameters: [
        {
          name: 'namespace',
          label: 'Namespace',
          type: 'text',
          required: true,
          default: '{{ config.tags.namespace }}',
          properties: { format: 'dns1123', maxLength: 63, size: 'small' },
        },
        {
          name: 'pod',
          label: 'Pod',
          type: 'text',
          required: true,
          default: '{{ config.name }}',
          properties: { format: 'dns1123', maxLength: 253 },
        },
        {
          name: 'focus',
          label: 'Look at',
          type: 'list',
          default: 'events',
          properties: {
            options: [
              { label: 'Events', value: 'events' },
              { label: 'Logs', value: 'logs' },
              { label: 'Resource usage', value: 'top' },
            ],
          },
        },
        { name: 'previous', label: "Include the previous container's logs", type: 'checkbox', default: 'false' },
        {
          name: 'tail',
          label: 'Log lines',
          type: 'text',
          default: '100',
          description: 'How many lines of the log to show',
          properties: { format: 'number', min: 10, max: 1000, size: 'very-small' },
        },
        {
          name: 'selector',
          label: 'Also compare with (YAML labels)',
          type: 'code',
          default: 'app: checkout\n',
          properties: { language: 'yaml', size: 'large' },
        },
      ],
      actions: [
        {
          name: 'describe',
          timeout: '1m',
          exec: {
            script: [
              'set -euo pipefail',
              'echo "Pod $PARAM_POD in namespace $PARAM_NAMESPACE on cluster $CLUSTER (catalog item $CONFIG_ID)"',
              'echo "Looking at: $PARAM_FOCUS; last $PARAM_TAIL log lines; previous container: $PARAM_PREVIOUS"',
              // The demo's pods live in no real cluster: without one the run still shows what the catalog knows.
              'if ! command -v kubectl >/dev/null 2>&1 || [ -z "${KUBECONFIG:-}" ]; then',
              '  echo "No Kubernetes cluster is reachable from this host (kubectl is missing or has no KUBECONFIG),"',
              '  echo "so this is the pod as the catalog last saw it: status ${POD_STATUS:-unknown}, health ${POD_HEALTH:-unknown}."',
              '  echo "Give the describe action a kubernetes connection to look at the live pod."',
              '  exit 0',
              'fi',
              'kubectl -n "$PARAM_NAMESPACE" describe pod "$PARAM_POD"',
              'case "$PARAM_FOCUS" in',
              '  events) kubectl -n "$PARAM_NAMESPACE" get events --field-selector "involvedObject.name=$PARAM_POD" ;;',
              '  logs) kubectl -n "$PARAM_NAMESPACE" logs "$PARAM_POD" --tail "$PARAM_TAIL" --previous="$PARAM_PREVIOUS" ;;',
              '  top) kubectl -n "$PARAM_NAMESPACE" top pod "$PARAM_POD" ;;',
              'esac',
            ].join('\n'),
            env: [
              { name: 'CLUSTER', value: '{{ config.tags.cluster }}' },
              { name: 'POD_STATUS', value: '{{ config.status }}' },
              { name: 'POD_HEALTH', value: '{{ config.health }}' },
            ],
          },
        },
        {
          name: 'notify-on-failure',
          if: 'failure()',
          notification: {
            connection: `connection://default/${DEMO_NOTIFICATION_CONNECTION}`,
            title: 'Pod diagnostics failed for {{ params.pod }}',
            message: "{{ actions['describe'].error }}",
          },
        },
      ],
    },
  };
}

/**
 * Probes the console's own health endpoints. The URL is written into the spec when the demo is seeded, from the
 * address the server is about to listen on, as the demo canaries are: a template could not know the port.
 */
function consoleHealth(serverUrl: string): DemoPlaybook {
  return {
    name: 'opsdeck-health',
    title: 'Probe the console',
    icon: 'http',
    description: "Calls the console's own /healthz and /api/version, and optionally again an hour later",
    category: 'Diagnostics',
    spec: {
      category: 'Diagnostics',
      checks: [{ name: 'opsdeck/*' }, { name: 'database/*' }],
      parameters: [{ name: 'recheck', label: 'Probe again in an hour', type: 'checkbox', default: 'false' }],
      actions: [
        {
          name: 'healthz',
          timeout: '10s',
          http: { url: `${serverUrl}/healthz`, method: 'GET', headers: [{ name: 'X-Opsdeck-Check', value: '{{ check.name }}' }] },
        },
        { name: 'version', if: 'always()', timeout: '10s', http: { url: `${serverUrl}/api/version`, method: 'GET' } },
        {
          name: 'recheck',
          if: 'params.recheck == "true"',
          delay: '1h',
          timeout: '10s',
          http: { url: `${serverUrl}/healthz`, method: 'GET' },
        },
      ],
    },
  };
}

/** A read-only query on the payments reporting replica; the values are bound arguments, never part of the query. */
function databaseSessions(): DemoPlaybook {
  return {
    name: 'database-sessions',
    title: 'Show long-running sessions',
    icon: 'postgres',
    description: 'Lists the sessions of the payments database that have been in one state for too long',
    category: 'Database',
    spec: {
      category: 'Database',
      components: [{ types: ['Database'] }],
      parameters: [
        {
          name: 'state',
          label: 'State',
          type: 'list',
          default: 'active',
          properties: {
            options: [
              { label: 'Active', value: 'active' },
              { label: 'Idle', value: 'idle' },
              { label: 'Idle in transaction', value: 'idle in transaction' },
            ],
          },
        },
        {
          name: 'min_seconds',
          label: 'Longer than (seconds)',
          type: 'text',
          required: true,
          default: '60',
          properties: { format: 'number', min: 0, max: 86400 },
        },
      ],
      actions: [
        {
          name: 'sessions',
          timeout: '30s',
          sql: {
            connection: `connection://default/${DEMO_SQL_CONNECTION}`,
            driver: 'postgres',
            query: [
              'select pid, usename, state, extract(epoch from now() - state_change)::integer as seconds, left(query, 120) as query',
              '  from pg_stat_activity',
              ' where state = $1 and now() - state_change > make_interval(secs => $2::double precision)',
              ' order by state_change',
              ' limit 50',
            ].join('\n'),
            args: ['{{ params.state }}', '{{ params.min_seconds }}'],
          },
        },
      ],
    },
  };
}

/** A restart that waits for a human: the demo commander or any member of the Platform team approves it. */
function restartDeployment(): DemoPlaybook {
  return {
    name: 'restart-deployment',
    title: 'Restart deployment',
    icon: 'kubernetes',
    description: 'Rolls the pods of a deployment one by one, once someone on the Platform team approves',
    category: 'Kubernetes',
    spec: {
      category: 'Kubernetes',
      configs: [{ types: ['Kubernetes::Deployment'], tagSelector: 'cluster=prod-eu' }],
      approval: { type: 'any', approvers: { people: ['commander@opsdeck.local'], teams: ['Platform'] } },
      parameters: [
        {
          name: 'reason',
          label: 'Reason',
          type: 'text',
          required: true,
          properties: { multiline: true, minLength: 10, maxLength: 500 },
        },
        { name: 'owner', label: 'Owning team', type: 'team', properties: { size: 'medium' } },
      ],
      actions: [
        {
          name: 'restart',
          timeout: '1m',
          exec: {
            script: 'kubectl -n "$NAMESPACE" rollout restart deployment "$CONFIG_NAME"',
            env: [{ name: 'NAMESPACE', value: '{{ config.tags.namespace }}' }],
          },
        },
        {
          name: 'wait-for-rollout',
          timeout: '10m',
          exec: {
            script: 'kubectl -n "$NAMESPACE" rollout status deployment "$CONFIG_NAME" --timeout=9m',
            env: [{ name: 'NAMESPACE', value: '{{ config.tags.namespace }}' }],
          },
        },
        {
          name: 'announce',
          if: 'always()',
          notification: {
            connection: `connection://default/${DEMO_NOTIFICATION_CONNECTION}`,
            title: 'Restart of {{ config.name }}: {{ actions["wait-for-rollout"].status }}',
            message: 'Requested by {{ user.name }}: {{ params.reason }}',
          },
        },
      ],
    },
  };
}

/** Pages the on-call channel about a failing check; no category, so its card sits under Other. */
function pageOnCall(): DemoPlaybook {
  return {
    name: 'page-on-call',
    title: 'Page the on-call channel',
    icon: 'bell',
    description: 'Posts a message about this check to the on-call channel',
    category: null,
    spec: {
      checks: [{ name: 'backup/*' }, { name: 'network/*' }],
      parameters: [
        {
          name: 'message',
          label: 'Message',
          type: 'text',
          required: true,
          default: 'Check {{ check.name }} is {{ check.status }}',
          properties: { multiline: true, maxLength: 500 },
        },
        { name: 'responder', label: 'Also tell', type: 'people' },
      ],
      actions: [
        {
          name: 'page',
          timeout: '30s',
          notification: {
            connection: `connection://default/${DEMO_NOTIFICATION_CONNECTION}`,
            title: '{{ check.name }} needs attention',
            message: '{{ params.message }}',
            properties: { responder: '{{ params.responder }}' },
          },
        },
      ],
    },
  };
}

interface DemoAction {
  status: PlaybookActionStatus;
  /** Minutes after the run started; null for an action that never started (skipped, sleeping). */
  startedAfter: number | null;
  /** How long it ran, in seconds. */
  seconds?: number;
  /** For a sleeping action: minutes from now until it wakes. */
  dueIn?: number;
  error?: string;
  result?: PlaybookActionResult;
}

interface DemoRun {
  playbook: string;
  status: PlaybookRunStatus;
  by: Role;
  target: { type: 'config' | 'component' | 'check'; id: string };
  parameters: Record<string, string>;
  /** When it was requested, in minutes before now. */
  minutesAgo: number;
  /** Minutes from the request to its start (an approval, a queue); null when it never started. */
  startedAfter: number | null;
  /** Minutes from the request to its end; null while it is not over. */
  endedAfter: number | null;
  /** For a scheduled run: minutes from now until it wakes. */
  dueIn?: number;
  error?: string;
  /** One entry per spec action the run reached, in spec order. */
  actions: DemoAction[];
}

async function one<T>(client: pg.PoolClient, what: string, sql: string, values: unknown[]): Promise<T> {
  const row = (await client.query(sql, values)).rows[0] as T | undefined;
  if (row === undefined) throw new Error(`the playbook demo needs ${what}, which the earlier demo seeds did not create`);
  return row;
}

interface DemoPod {
  id: string;
  name: string;
  namespace: string;
  app: string;
}

interface DemoTargets {
  crashingPod: DemoPod;
  /** A pod of an earlier rollout, deleted this many minutes ago. */
  gonePod: DemoPod & { minutesAgo: number };
  healthyPod: DemoPod;
  checkout: string;
  cart: string;
  payments: string;
  healthz: string;
  backup: string;
}

async function findTargets(client: pg.PoolClient): Promise<DemoTargets> {
  const pod = (health: string, app: string | null): Promise<DemoPod> =>
    one(
      client,
      `a ${health} ${app ?? ''} pod in prod-eu`,
      `select id, name, tags ->> 'namespace' as namespace, labels ->> 'app' as app from config_items
        where type = 'Kubernetes::Pod' and health = $1 and ($2::text is null or labels ->> 'app' = $2)
          and tags ->> 'cluster' = 'prod-eu' and deleted_at is null
        order by name limit 1`,
      [health, app],
    );
  const deployment = async (name: string): Promise<string> =>
    (
      await one<{ id: string }>(
        client,
        `the ${name} deployment`,
        `select id from config_items where type = 'Kubernetes::Deployment' and name = $1 and tags ->> 'cluster' = 'prod-eu' and deleted_at is null
          order by created_at limit 1`,
        [name],
      )
    ).id;
  const check = async (name: string): Promise<string> =>
    (await one<{ id: string }>(client, `the check ${name}`, 'select id from checks where name = $1 and deleted_at is null order by created_at limit 1', [name])).id;
  const payments = await one<{ id: string }>(
    client,
    'the payments-db component',
    `select id from components where name = 'payments-db' and type = 'Database' and deleted_at is null order by created_at limit 1`,
    [],
  );
  const gonePod = await one<DemoPod & { minutes_ago: number }>(
    client,
    'a deleted pod in prod-eu',
    `select id, name, tags ->> 'namespace' as namespace, labels ->> 'app' as app,
            floor(extract(epoch from now() - deleted_at) / 60)::integer as minutes_ago
       from config_items
      where type = 'Kubernetes::Pod' and tags ->> 'cluster' = 'prod-eu' and deleted_at is not null
      order by name limit 1`,
    [],
  );
  return {
    crashingPod: await pod('unhealthy', 'checkout'),
    gonePod: { id: gonePod.id, name: gonePod.name, namespace: gonePod.namespace, app: gonePod.app, minutesAgo: gonePod.minutes_ago },
    healthyPod: await pod('healthy', null),
    checkout: await deployment('checkout'),
    cart: await deployment('cart'),
    payments: payments.id,
    healthz: await check('opsdeck/healthz'),
    backup: await check('backup/nightly-job'),
  };
}

/** What `kubectl describe` printed for the crash-looping checkout pod. */
const POD_DESCRIBE = ({ name, namespace, app }: DemoPod): string =>
  [
    `Pod ${name} in namespace ${namespace} on cluster prod-eu`,
    'Looking at: events; last 100 log lines; previous container: true',
    `Name:             ${name}`,
    `Namespace:        ${namespace}`,
    'Status:           Running',
    'Containers:',
    `  ${app}:`,
    '    State:          Waiting',
    '      Reason:       CrashLoopBackOff',
    '    Last State:     Terminated',
    '      Reason:       OOMKilled',
    '      Exit Code:    137',
    '    Restart Count:  4',
    '    Limits:',
    '      memory:  512Mi',
    'Events:',
    '  Type     Reason   Age                 From     Message',
    '  ----     ------   ----                ----     -------',
    `  Warning  BackOff  4m (x14 over 170m)  kubelet  Back-off restarting failed container ${app}`,
    '',
  ].join('\n');

const SESSION_ROWS = [
  { pid: 48211, usename: 'ledger', state: 'active', seconds: 412, query: 'update ledger_entries set settled = true where batch_id = $1' },
  { pid: 48377, usename: 'payments_api', state: 'active', seconds: 95, query: 'select * from payments where status = $1 order by created_at' },
];

/** What the http runner keeps of a 200 answer. */
function httpAnswer(url: string, body: string, contentType: string, ms: number): PlaybookActionResult {
  return { status: 200, headers: { 'content-type': contentType }, body, logs: `GET ${url} → HTTP 200 in ${ms}ms` };
}

function demoRuns(targets: DemoTargets, serverUrl: string): DemoRun[] {
  const { crashingPod, healthyPod } = targets;
  const healthz = (ms: number): PlaybookActionResult => httpAnswer(`${serverUrl}/healthz`, 'ok', 'text/plain; charset=utf-8', ms);
  const version = (ms: number): PlaybookActionResult => httpAnswer(`${serverUrl}/api/version`, '{"version":"0.1.0"}', 'application/json; charset=utf-8', ms);
  const podParams = (pod: DemoPod, focus: string): Record<string, string> => ({
    namespace: pod.namespace,
    pod: pod.name,
    focus,
    previous: 'true',
    tail: '100',
    selector: 'app: checkout\n',
  });
  return [
    {
      playbook: DEMO_PLAYBOOK_NAME,
      status: 'completed',
      by: 'editor',
      target: { type: 'config', id: crashingPod.id },
      parameters: podParams(crashingPod, 'events'),
      minutesAgo: 2 * 24 * 60,
      startedAfter: 0,
      endedAfter: 1,
      actions: [
        { status: 'completed', startedAfter: 0, seconds: 4, result: { stdout: POD_DESCRIBE(crashingPod), stderr: '', exitCode: 0 } },
        { status: 'skipped', startedAfter: null },
      ],
    },
    {
      playbook: DEMO_PLAYBOOK_NAME,
      status: 'failed',
      by: 'editor',
      target: { type: 'config', id: healthyPod.id },
      parameters: podParams(healthyPod, 'logs'),
      minutesAgo: 5 * 60,
      startedAfter: 0,
      endedAfter: 1,
      actions: [
        {
          status: 'failed',
          startedAfter: 0,
          seconds: 2,
          error: seededFailure('exit code 1'),
          result: {
            stdout: `Pod ${healthyPod.name} in namespace ${healthyPod.namespace} on cluster prod-eu\nLooking at: logs; last 100 log lines; previous container: true\n`,
            stderr: `Error from server (BadRequest): previous terminated container "${healthyPod.app}" in pod "${healthyPod.name}" not found\n`,
            exitCode: 1,
          },
        },
        {
          status: 'completed',
          startedAfter: 0,
          seconds: 1,
          result: { logs: `Sent through ${DEMO_NOTIFICATION_CONNECTION} (generic_webhook): Pod diagnostics failed for ${healthyPod.name}`, body: 'exit code 1' },
        },
      ],
    },
    {
      playbook: 'opsdeck-health',
      status: 'completed',
      by: 'editor',
      target: { type: 'check', id: targets.healthz },
      parameters: { recheck: 'false' },
      minutesAgo: 3 * 60,
      startedAfter: 0,
      endedAfter: 0,
      actions: [
        { status: 'completed', startedAfter: 0, seconds: 1, result: healthz(12) },
        { status: 'completed', startedAfter: 0, seconds: 1, result: version(9) },
        { status: 'skipped', startedAfter: null },
      ],
    },
    {
      playbook: 'opsdeck-health',
      status: 'scheduled',
      by: 'admin',
      target: { type: 'check', id: targets.healthz },
      parameters: { recheck: 'true' },
      minutesAgo: 10,
      startedAfter: 0,
      endedAfter: null,
      dueIn: 50,
      actions: [
        { status: 'completed', startedAfter: 0, seconds: 1, result: healthz(15) },
        { status: 'completed', startedAfter: 0, seconds: 1, result: version(8) },
        { status: 'sleeping', startedAfter: null, dueIn: 50 },
      ],
    },
    {
      playbook: 'database-sessions',
      status: 'completed',
      by: 'admin',
      target: { type: 'component', id: targets.payments },
      parameters: { state: 'active', min_seconds: '60' },
      minutesAgo: 26 * 60,
      startedAfter: 0,
      endedAfter: 0,
      actions: [{ status: 'completed', startedAfter: 0, seconds: 1, result: { rows: SESSION_ROWS, rowCount: SESSION_ROWS.length, logs: `2 rows from default/${DEMO_SQL_CONNECTION} in 14ms` } }],
    },
    {
      playbook: 'database-sessions',
      status: 'failed',
      by: 'editor',
      target: { type: 'component', id: targets.payments },
      parameters: { state: 'idle in transaction', min_seconds: '600' },
      minutesAgo: 50 * 60,
      startedAfter: 0,
      endedAfter: 0,
      actions: [{ status: 'failed', startedAfter: 0, seconds: 1, error: seededFailure('connect ECONNREFUSED 127.0.0.1:5432'), result: {} }],
    },
    {
      playbook: DEMO_PLAYBOOK_NAME,
      status: 'failed',
      by: 'editor',
      target: { type: 'config', id: targets.gonePod.id },
      parameters: podParams(targets.gonePod, 'logs'),
      // Requested as the pod went away: the run failed before its first action, with only an error.
      minutesAgo: targets.gonePod.minutesAgo,
      startedAfter: 0,
      endedAfter: 0,
      error: 'The catalog item this run targets no longer exists',
      actions: [],
    },
    {
      playbook: 'restart-deployment',
      status: 'waiting',
      by: 'editor',
      target: { type: 'config', id: targets.cart },
      parameters: { reason: 'Cart pods keep a stale price cache after the 14:00 catalog import', owner: '' },
      minutesAgo: 20,
      startedAfter: null,
      endedAfter: null,
      actions: [],
    },
    {
      playbook: 'restart-deployment',
      status: 'cancelled',
      by: 'admin',
      target: { type: 'config', id: targets.checkout },
      parameters: { reason: 'Checkout pods are OOMKilled after the 2.14.0 rollout', owner: '' },
      minutesAgo: 4 * 60,
      startedAfter: 3,
      endedAfter: 9,
      actions: [
        { status: 'completed', startedAfter: 3, seconds: 2, result: { stdout: 'deployment.apps/checkout restarted\n', stderr: '', exitCode: 0 } },
        {
          status: 'cancelled',
          startedAfter: 3,
          seconds: 360,
          error: 'The run was cancelled',
          result: { stdout: 'Waiting for deployment "checkout" rollout to finish: 2 of 6 updated replicas are available...\n', stderr: '' },
        },
      ],
    },
    {
      playbook: 'page-on-call',
      status: 'completed',
      by: 'admin',
      target: { type: 'check', id: targets.backup },
      parameters: { message: 'Check backup/nightly-job is unhealthy: no space left on device', responder: '' },
      minutesAgo: 30 * 60,
      startedAfter: 0,
      endedAfter: 0,
      actions: [
        {
          status: 'completed',
          startedAfter: 0,
          seconds: 1,
          result: {
            logs: `Sent through ${DEMO_NOTIFICATION_CONNECTION} (generic_webhook): backup/nightly-job needs attention`,
            body: 'Check backup/nightly-job is unhealthy: no space left on device',
          },
        },
      ],
    },
  ];
}

function minutesFrom(base: number, minutes: number): Date {
  return new Date(base + minutes * 60_000);
}

async function insertRun(client: pg.PoolClient, run: DemoRun, playbook: { id: string; spec: PlaybookSpec }, createdBy: string | null, now: number): Promise<void> {
  const requested = now - run.minutesAgo * 60_000;
  const start = run.startedAfter === null ? null : minutesFrom(requested, run.startedAfter);
  const scheduled = run.dueIn === undefined ? (start ?? new Date(requested)) : minutesFrom(now, run.dueIn);
  const inserted = await client.query<{ id: string }>(
    `insert into playbook_runs (playbook_id, status, parameters, config_id, component_id, check_id, spec, scheduled_time, start_time, end_time,
       error, created_by, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) returning id`,
    [
      playbook.id,
      run.status,
      JSON.stringify(run.parameters),
      run.target.type === 'config' ? run.target.id : null,
      run.target.type === 'component' ? run.target.id : null,
      run.target.type === 'check' ? run.target.id : null,
      JSON.stringify(playbook.spec),
      scheduled,
      start,
      run.endedAfter === null ? null : minutesFrom(requested, run.endedAfter),
      run.error ?? null,
      createdBy,
      new Date(requested),
    ],
  );
  const runId = inserted.rows[0]?.id;
  if (runId === undefined) throw new Error('playbook run insert returned no id');
  for (const [position, action] of run.actions.entries()) {
    const name = playbook.spec.actions[position]?.name;
    if (name === undefined) throw new Error(`demo run of ${run.playbook} has more actions than its spec`);
    const actionStart = action.startedAfter === null || start === null ? null : minutesFrom(requested, action.startedAfter);
    const actionEnd = actionStart === null || action.seconds === undefined ? null : new Date(actionStart.getTime() + action.seconds * 1000);
    const actionScheduled = action.dueIn === undefined ? (actionStart ?? start ?? new Date(requested)) : minutesFrom(now, action.dueIn);
    await client.query(
      `insert into playbook_run_actions (playbook_run_id, name, status, position, scheduled_time, start_time, end_time, error, result)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        runId,
        name,
        action.status,
        position,
        actionScheduled,
        actionStart,
        actionEnd,
        action.error ?? null,
        action.result === undefined ? null : JSON.stringify(action.result),
      ],
    );
  }
}

/** The two connections the playbooks use; neither points at the console's own database. */
async function seedConnections(client: pg.PoolClient, ctx: PlaybooksDemoContext, createdBy: string | null): Promise<void> {
  await client.query(
    `insert into connections (name, namespace, type, url, username, password_encrypted, properties, created_by)
     values ($1, 'default', 'postgres', 'postgres://127.0.0.1:5432/payments?sslmode=disable', 'readonly', $2, '{}', $3)
     on conflict (namespace, name) where deleted_at is null do nothing`,
    [DEMO_SQL_CONNECTION, encryptSecret(ctx.secretKey, 'opsdeck-demo'), createdBy],
  );
  await client.query(
    `insert into connections (name, namespace, type, url, properties, source, created_by)
     values ($1, 'default', 'generic_webhook', $2, '{"contentType": "application/json"}', $3, $4)
     on conflict (namespace, name) where deleted_at is null do nothing`,
    [DEMO_NOTIFICATION_CONNECTION, `${ctx.serverUrl}${DEMO_INBOX_HOOKS_PATH}/ops-alerts`, DEMO_INBOX_SOURCE, createdBy],
  );
}

/**
 * Demo playbooks of every action type and category, and runs in every status a row can safely be left in: runs that
 * finished, one waiting for approval, one sleeping until an hour from now, one that failed before its first action.
 * A pending or running row written here would be executed or reaped by the worker as if a person had asked for it,
 * so the pending run is a real request of the harmless paging playbook, which the worker runs once it starts: it fails
 * with the webhook's refusal, as a paging run does until ops-alerts points at a real endpoint.
 * Returns false when the demo playbooks exist already.
 */
export async function seedPlaybooksDemo(client: pg.PoolClient, ctx: PlaybooksDemoContext): Promise<boolean> {
  const existing = await client.query('select 1 from playbooks where name = $1 and deleted_at is null', [DEMO_PLAYBOOK_NAME]);
  if ((existing.rowCount ?? 0) > 0) return false;
  const admin = ctx.peopleByRole.admin ?? null;
  await seedConnections(client, ctx, admin);

  const playbooks = new Map<string, { id: string; spec: PlaybookSpec }>();
  for (const playbook of [podDiagnostics(), consoleHealth(ctx.serverUrl), databaseSessions(), restartDeployment(), pageOnCall()]) {
    const inserted = await client.query<{ id: string }>(
      `insert into playbooks (name, title, icon, description, category, spec, created_by) values ($1, $2, $3, $4, $5, $6, $7) returning id`,
      [playbook.name, playbook.title, playbook.icon, playbook.description, playbook.category, JSON.stringify(playbook.spec), admin],
    );
    const id = inserted.rows[0]?.id;
    if (id === undefined) throw new Error('playbook insert returned no id');
    playbooks.set(playbook.name, { id, spec: playbook.spec });
  }

  const targets = await findTargets(client);
  const now = Date.now();
  for (const run of demoRuns(targets, ctx.serverUrl)) {
    const playbook = playbooks.get(run.playbook);
    if (playbook === undefined) throw new Error(`demo run of an unknown playbook ${run.playbook}`);
    await insertRun(client, run, playbook, ctx.peopleByRole[run.by] ?? null, now);
  }
  const paging = playbooks.get('page-on-call');
  if (paging === undefined) throw new Error('the paging playbook was not created');
  await requestPlaybookRun(client, {
    playbookId: paging.id,
    target: { type: 'check', id: targets.backup },
    params: { message: 'Check backup/nightly-job is unhealthy: the nightly backup failed again' },
    createdBy: admin,
  });
  return true;
}
