import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import pg from 'pg';
import { runCheck } from '../modules/health';
import { median } from './median';

/** Runs of each variant, interleaved one by one (A, B, C, D, E, A, B…) so a burst of load on the machine hits all alike. */
const RUNS_PER_VARIANT = 1000;
/** ADR 0070: test, display and transform may add at most a tenth to the time of a check run. */
export const EXPRESSION_COST_GOAL = 0.1;
/**
 * ADR 0076: a JavaScript form pays for a fresh sandbox (a QuickJS runtime and context) per evaluation, so its goal is
 * absolute: at most 2 ms more per check run with a display and a test script.
 */
export const JAVASCRIPT_EXTRA_MS_GOAL = 2;

export interface ExpressionBenchFigures {
  plainPerSecond: number;
  /** A test as most fixtures write it (comparisons): evaluated directly. */
  testPerSecond: number;
  /** Test, display and a transform over the JSON answer with filter and map: under the watchdog. */
  fullPerSecond: number;
  /** A test and two metrics as metrics.yaml writes them (a counter labelled by check and code, a gauge of a field). */
  metricsPerSecond: number;
  /** A display and a test in JavaScript, as display-with-javascript_pass.yaml writes them: each in its own sandbox. */
  scriptPerSecond: number;
  scriptExtraMs: number;
  /** Extra time per check run, as a fraction of the run without expressions. */
  testCost: number;
  fullCost: number;
  metricsCost: number;
  scriptCost: number;
}

function startTarget(): Promise<{ url: string; close(): Promise<void> }> {
  const body = JSON.stringify({ status: 'ok', items: Array.from({ length: 20 }, (_, i) => ({ name: `item-${i}`, up: i % 7 !== 0 })) });
  const server = http.createServer((_, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(body);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}/status`, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

/** The same http check bare, with a test as most of Mission Control's fixtures write it, and with all three expressions. */
function specs(url: string): Record<'plain' | 'test' | 'full' | 'metrics' | 'script', Record<string, unknown>> {
  const plain = { name: 'bench', url };
  return {
    plain,
    test: { ...plain, test: { expr: "code == 200 && json.status == 'ok'" } },
    full: {
      ...plain,
      test: { expr: "code == 200 && json.status == 'ok' && json.items.filter(i, !i.up).size() < 5" },
      display: { expr: "json.items.filter(i, !i.up).map(i, i.name).join(', ') + ' down; ' + HumanDuration(elapsed)" },
      transform: { expr: "{'detail': {'down': json.items.filter(i, !i.up).size()}}.toJSON()" },
    },
    metrics: {
      ...plain,
      test: { expr: "code == 200 && json.status == 'ok'" },
      metrics: [
        { name: 'bench_count', type: 'counter', value: '1', labels: [{ name: 'check_name', valueExpr: 'check.name' }, { name: 'code', valueExpr: 'code' }] },
        { name: 'bench_items', type: 'gauge', value: 'json.items.size()' },
      ],
    },
    script: {
      ...plain,
      test: { javascript: "code === 200 && json.status === 'ok'" },
      display: { javascript: "var down = []; for (var i in json.items) if (!json.items[i].up) down.push(json.items[i].name); down.join(', ') + ' down'" },
    },
  };
}

async function timedRun(spec: Record<string, unknown>, pool: pg.Pool): Promise<number> {
  const started = performance.now();
  const result = await runCheck('http', spec, { pool, resolveConnection: () => Promise.reject(new Error('no connections in the bench')) });
  if (!result.pass) throw new Error(`the bench check failed: ${result.error ?? result.message}`);
  return performance.now() - started;
}

/**
 * Checks per second (one at a time, from the median time of a run) without expressions, with a test, and with all
 * three. Medians of single runs taken in turn: on a machine others share, a burst lands on a few runs of each variant
 * and moves none of the medians, where totals over a stretch of time would carry it into one variant only.
 */
export async function benchCheckExpressions(): Promise<ExpressionBenchFigures> {
  const target = await startTarget();
  // The http checker never queries the database; runCheck's context still takes a pool, which stays unconnected.
  const pool = new pg.Pool({ max: 1 });
  try {
    const variants = specs(target.url);
    const times = { plain: [] as number[], test: [] as number[], full: [] as number[], metrics: [] as number[], script: [] as number[] };
    for (let warm = 0; warm < 100; warm += 1) for (const spec of Object.values(variants)) await timedRun(spec, pool);
    for (let run = 0; run < RUNS_PER_VARIANT; run += 1) {
      times.plain.push(await timedRun(variants.plain, pool));
      times.test.push(await timedRun(variants.test, pool));
      times.full.push(await timedRun(variants.full, pool));
      times.metrics.push(await timedRun(variants.metrics, pool));
      times.script.push(await timedRun(variants.script, pool));
    }
    const plain = median(times.plain);
    const test = median(times.test);
    const full = median(times.full);
    const metrics = median(times.metrics);
    const script = median(times.script);
    return {
      scriptPerSecond: 1000 / script,
      scriptCost: (script - plain) / plain,
      scriptExtraMs: script - plain,
      plainPerSecond: 1000 / plain,
      testPerSecond: 1000 / test,
      fullPerSecond: 1000 / full,
      testCost: (test - plain) / plain,
      fullCost: (full - plain) / plain,
      metricsPerSecond: 1000 / metrics,
      metricsCost: (metrics - plain) / plain,
    };
  } finally {
    await pool.end();
    await target.close();
  }
}

function verdict(cost: number): string {
  return `CEL cost ${(cost * 100).toFixed(1)} % of a check run's time   (goal < ${EXPRESSION_COST_GOAL * 100} %: ${cost < EXPRESSION_COST_GOAL ? 'met' : 'NOT met'})`;
}

export async function reportCheckExpressions(heading: (title: string) => void): Promise<void> {
  heading('Check expressions (test, display, transform, metrics)');
  const [load = 0] = os.loadavg();
  console.log(`Load average before: ${load.toFixed(1)} on ${os.availableParallelism()} cores`);
  const figures = await benchCheckExpressions();
  console.log(
    `http checks against an in-process listener (the cheapest real check), one at a time, ${RUNS_PER_VARIANT} runs of each variant ` +
      'taken in turn (A, B, C, D, E, A, B, C, D, E…); checks/s from the median run:',
  );
  console.log(`  ${'A without expressions'.padEnd(34)} ${figures.plainPerSecond.toFixed(0)} checks/s`);
  console.log(`  ${'B with a test (comparisons)'.padEnd(34)} ${figures.testPerSecond.toFixed(0)} checks/s   ${verdict(figures.testCost)}`);
  console.log(`  ${'C with test, display, transform'.padEnd(34)} ${figures.fullPerSecond.toFixed(0)} checks/s   ${verdict(figures.fullCost)}`);
  console.log(`  ${'D with a test and two metrics'.padEnd(34)} ${figures.metricsPerSecond.toFixed(0)} checks/s   ${verdict(figures.metricsCost)}`);
  const scriptMet = figures.scriptExtraMs < JAVASCRIPT_EXTRA_MS_GOAL ? 'met' : 'NOT met';
  console.log(
    `  ${'E with a JavaScript test, display'.padEnd(34)} ${figures.scriptPerSecond.toFixed(0)} checks/s   JavaScript cost ${(figures.scriptCost * 100).toFixed(1)} %, ` +
      `+${figures.scriptExtraMs.toFixed(2)} ms per run   (goal < ${JAVASCRIPT_EXTRA_MS_GOAL} ms: ${scriptMet})`,
  );
}
