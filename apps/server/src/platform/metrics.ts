import type pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { CheckMetricRegistry } from './check-metrics';
import type { ServerRole } from './config';

/** The route label of a request no route matched (the web app's files, unknown paths): raw URLs never become labels. */
export const UNMATCHED_ROUTE = '(unmatched)';

/** Methods a client may send are unbounded text; anything else is counted as one value so it cannot grow the series. */
const KNOWN_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** From a quick API answer to a slow export; the defaults stop at 10 s, which a data-API export may pass. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Scrapes, topology builds and playbook runs take from under a second to many minutes. */
const RUN_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800];

export interface MetricsOptions {
  pool: pg.Pool;
  role: ServerRole;
  version: string;
}

export interface Metrics {
  /** This app's own registry: tests build many apps in one process, and each must count only its own requests. */
  readonly registry: Registry;
  readonly contentType: string;
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  /** result: pass or fail. */
  readonly checkRuns: Counter<'type' | 'result'>;
  /** status: the job status a run ended with (SUCCESS, WARNING, FAILED, …). */
  readonly scraperRunDuration: Histogram<'status'>;
  readonly topologyRunDuration: Histogram<'status'>;
  /** status: completed, failed or cancelled. */
  readonly playbookRunDuration: Histogram<'status'>;
  /** result: sent or failed. */
  readonly notificationDeliveries: Counter<'result'>;
  /** The metrics health checks define (their `metrics` field), in this registry. */
  readonly checkMetrics: CheckMetricRegistry;
  /** Observes one answered request under its route pattern. */
  observeRequest(method: string, route: string | undefined, status: number, seconds: number): void;
  /** The exposition text: this app's metrics, then the process's (one set per process, whichever app asks). */
  render(): Promise<string>;
}

let processRegistry: Registry | null = null;

/**
 * Memory, CPU, event-loop lag and GC belong to the process, not to an app: collected once, into a registry of their
 * own, so a process that builds several apps (the test suites) does not start one set of observers per app.
 */
function processMetrics(): Registry {
  if (processRegistry === null) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** Creates the metrics of one app, with the gauges that are read when scraped (pool use, event-queue depth). */
export function createMetrics(options: MetricsOptions): Metrics {
  const registry = new Registry();
  const registers = [registry];
  const { pool } = options;

  new Gauge({
    name: 'opsdeck_build_info',
    help: 'Always 1; the labels say which version runs and in which role (api, worker or all)',
    labelNames: ['version', 'role'],
    registers,
  }).set({ version: options.version, role: options.role }, 1);

  const httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to sending its answer, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: HTTP_BUCKETS,
    registers,
  });

  new Gauge({
    name: 'opsdeck_db_pool_connections',
    help: 'Connections of the database pool; state total counts all, idle those free for a query',
    labelNames: ['state'] as const,
    registers,
    collect() {
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
    },
  });
  new Gauge({
    name: 'opsdeck_db_pool_waiting_requests',
    help: 'Queries waiting for a free connection of the database pool',
    registers,
    collect() {
      this.set(pool.waitingCount);
    },
  });

  const collectErrors = new Counter({
    name: 'opsdeck_metrics_collect_errors_total',
    help: 'Scrapes in which a gauge read from the database (event-queue depth) could not be collected',
    labelNames: ['metric'] as const,
    registers,
  });
  new Gauge({
    name: 'opsdeck_event_queue_depth',
    help: 'Events waiting in the event queue (claimed, retrying and failed ones included), by event name',
    labelNames: ['name'] as const,
    registers,
    // One grouped query per scrape, on the pick index's leading column. A failed read leaves the gauge empty for this
    // scrape (and counts the failure) instead of failing the whole answer.
    async collect() {
      this.reset();
      try {
        const result = await pool.query<{ name: string; depth: number }>('select name, count(*)::int as depth from event_queue group by name');
        for (const row of result.rows) this.set({ name: row.name }, row.depth);
      } catch {
        collectErrors.inc({ metric: 'opsdeck_event_queue_depth' });
      }
    },
  });

  const checkRuns = new Counter({
    name: 'opsdeck_check_runs_total',
    help: 'Health check runs recorded by this process, by check type and result (pass or fail)',
    labelNames: ['type', 'result'] as const,
    registers,
  });
  const scraperRunDuration = new Histogram({
    name: 'opsdeck_scraper_run_duration_seconds',
    help: 'Duration of the scraper runs of this process, by the status the run ended with',
    labelNames: ['status'] as const,
    buckets: RUN_BUCKETS,
    registers,
  });
  const topologyRunDuration = new Histogram({
    name: 'opsdeck_topology_run_duration_seconds',
    help: 'Duration of the topology builds of this process, by the status the build ended with',
    labelNames: ['status'] as const,
    buckets: RUN_BUCKETS,
    registers,
  });
  const playbookRunDuration = new Histogram({
    name: 'opsdeck_playbook_run_duration_seconds',
    help: 'Duration of the playbook runs this process finished, from start to end, by final status',
    labelNames: ['status'] as const,
    buckets: RUN_BUCKETS,
    registers,
  });
  const notificationDeliveries = new Counter({
    name: 'opsdeck_notification_deliveries_total',
    help: 'Notification sends to a recipient by this process, by result (sent or failed)',
    labelNames: ['result'] as const,
    registers,
  });

  return {
    registry,
    contentType: registry.contentType,
    httpRequests,
    httpDuration,
    checkRuns,
    scraperRunDuration,
    topologyRunDuration,
    playbookRunDuration,
    notificationDeliveries,
    checkMetrics: new CheckMetricRegistry(registry),
    observeRequest(method, route, status, seconds) {
      const labels = { method: KNOWN_METHODS.has(method) ? method : 'OTHER', route: route ?? UNMATCHED_ROUTE, status: String(status) };
      httpRequests.inc(labels);
      httpDuration.observe(labels, seconds);
    },
    async render() {
      return `${await registry.metrics()}\n${await processMetrics().metrics()}`;
    },
  };
}
