import { appendFileSync, closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The demo backend, and where its files live: under the default log root, so paths stay relative to it. */
export const DEMO_LOG_BACKEND_NAME = 'demo-service-logs';
export const DEMO_LOG_FOLDER = 'demo';
/** One line per service this often while a worker runs with demo data, so the last 15 minutes always have lines. */
export const DEMO_APPEND_MS = 10_000;
const DAY_MS = 24 * 60 * 60_000;

type DemoFormat = 'json' | 'plain' | 'logfmt';
type Level = 'debug' | 'info' | 'warn' | 'error';

interface DemoService {
  app: string;
  namespace: string;
  format: DemoFormat;
  messages: Record<Level, readonly string[]>;
}

/** The services of the demo shop's topology (seed/topology.ts), each with the sort of things it would say. */
export const DEMO_LOG_SERVICES: readonly DemoService[] = [
  {
    app: 'checkout',
    namespace: 'shop',
    format: 'json',
    messages: {
      debug: ['loaded cart {n} items', 'tax rules cache hit region=eu-west-1', 'payment session created'],
      info: ['order {order} placed total={amount} EUR', 'GET /api/checkout 200 in {ms}ms', 'POST /api/checkout/confirm 201 in {ms}ms', 'shipping quote received from dhl in {ms}ms'],
      warn: ['payment provider slow: {ms}ms for authorize', 'retrying inventory reservation for order {order} (attempt 2)', 'p95 latency above 2000ms over the last minute'],
      error: ['payment authorization failed for order {order}: card_declined', 'timeout calling payments-api after 5000ms', 'inventory reservation failed for order {order}: connection reset by peer'],
    },
  },
  {
    app: 'cart',
    namespace: 'shop',
    format: 'plain',
    messages: {
      debug: ['session {session} restored from redis', 'cart {session} serialized ({n} items)'],
      info: ['GET /cart 200 {ms}ms', 'POST /cart/items 201 {ms}ms', 'cart {session} merged after login', 'evicted {n} expired carts'],
      warn: ['redis latency {ms}ms above 100ms', 'cart {session} exceeds 50 items, truncating suggestions'],
      error: ['redis connection lost: ECONNRESET, reconnecting', 'failed to persist cart {session}: READONLY You cannot write against a read only replica'],
    },
  },
  {
    app: 'frontend',
    namespace: 'shop',
    format: 'plain',
    messages: {
      debug: ['rendered /products/{n} in {ms}ms', 'asset manifest reloaded'],
      info: ['GET / 200 {ms}ms', 'GET /products/{n} 200 {ms}ms', 'GET /search?q=shoes 200 {ms}ms', 'GET /healthz 200 1ms'],
      warn: ['GET /products/{n} 404 {ms}ms', 'upstream checkout answered slowly ({ms}ms)'],
      error: ['GET /checkout 502 {ms}ms: upstream checkout unavailable', 'unhandled rejection in image resizer: ENOMEM'],
    },
  },
  {
    app: 'payments-api',
    namespace: 'payments',
    format: 'json',
    messages: {
      debug: ['idempotency key {order} looked up', 'webhook signature verified'],
      info: ['payment {order} authorized amount={amount} EUR', 'payment {order} captured', 'refund issued for order {order}', 'POST /v1/payments 201 in {ms}ms'],
      warn: ['acquirer answered in {ms}ms, above the 1000ms budget', 'duplicate webhook for payment {order} ignored'],
      error: ['acquirer returned 503 for payment {order}', 'ledger write failed for payment {order}: deadlock detected'],
    },
  },
  {
    app: 'ledger',
    namespace: 'payments',
    format: 'logfmt',
    messages: {
      debug: ['snapshot compacted entries={n}', 'checkpoint written'],
      info: ['journal entry posted order={order} amount={amount}', 'daily balance reconciled accounts={n}', 'batch committed entries={n} duration={ms}ms'],
      warn: ['replication lag {ms}ms on ledger-1', 'slow query journal_entries took {ms}ms'],
      error: ['constraint violation on journal_entries: duplicate key order={order}', 'replica ledger-1 unreachable: connection refused'],
    },
  },
];

/** A small deterministic generator, so a seeded demo reads the same on every machine. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function pickLevel(random: number): Level {
  if (random < 0.04) return 'error';
  if (random < 0.13) return 'warn';
  if (random < 0.25) return 'debug';
  return 'info';
}

function fill(template: string, next: () => number): string {
  return template
    .replaceAll('{n}', String(1 + Math.floor(next() * 40)))
    .replaceAll('{ms}', String(5 + Math.floor(next() * 2400)))
    .replaceAll('{order}', `ORD-${100000 + Math.floor(next() * 900000)}`)
    .replaceAll('{amount}', (5 + next() * 495).toFixed(2))
    .replaceAll('{session}', Math.floor(next() * 0xffffff).toString(16).padStart(6, '0'));
}

function plainTime(date: Date): string {
  return date.toISOString().replace('T', ' ').replace(/\.\d+Z$/, '');
}

/** One line of a service at a time, in the service's format. */
export function demoLogLine(service: DemoService, time: Date, next: () => number): string {
  const level = pickLevel(next());
  const options = service.messages[level];
  const message = fill(options[Math.floor(next() * options.length)] ?? '', next);
  const trace = Math.floor(next() * 0xffffffff).toString(16).padStart(8, '0');
  if (service.format === 'json') {
    return JSON.stringify({ time: time.toISOString(), level, msg: message, service: service.app, trace_id: trace });
  }
  if (service.format === 'logfmt') {
    return `ts=${time.toISOString()} level=${level} msg=${JSON.stringify(message)} service=${service.app} trace_id=${trace}`;
  }
  return `${plainTime(time)} ${level.toUpperCase().padEnd(5)} [${service.app}] ${message}`;
}

export function demoLogFile(root: string, app: string): string {
  return path.join(root, DEMO_LOG_FOLDER, `${app}.log`);
}

/** Lines between two times, a few minutes apart on average, oldest first. */
function linesBetween(service: DemoService, from: number, to: number, meanGapMs: number, next: () => number): string {
  const lines: string[] = [];
  for (let time = from + next() * meanGapMs; time <= to; time += meanGapMs * (0.2 + next() * 1.6)) {
    lines.push(demoLogLine(service, new Date(time), next));
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/**
 * Writes the demo services' log files under `<root>/demo` (about 3,000 lines each over the last seven days). A
 * folder that exists is left alone: those files are the visitor's now. Returns false when it was there already.
 */
export function writeDemoLogs(root: string, now: Date = new Date()): boolean {
  const folder = path.join(root, DEMO_LOG_FOLDER);
  if (existsSync(folder)) return false;
  mkdirSync(folder, { recursive: true });
  for (const [index, service] of DEMO_LOG_SERVICES.entries()) {
    const next = generator(17 + index * 7919);
    const end = now.getTime();
    // A denser last hour, so the default range of the logs page opens on a full screen.
    const week = linesBetween(service, end - 7 * DAY_MS, end - 60 * 60_000, 210_000, next);
    const hour = linesBetween(service, end - 60 * 60_000, end, 20_000, next);
    writeFileSync(demoLogFile(root, service.app), week + hour);
  }
  return true;
}

/** The time of a file's last line, read from its last few kilobytes; null when there is none. */
function lastLineTime(file: string): number | null {
  const descriptor = openSync(file, 'r');
  try {
    const size = fstatSync(descriptor).size;
    const length = Math.min(size, 8192);
    const buffer = Buffer.alloc(length);
    readSync(descriptor, buffer, 0, length, size - length);
    const lines = buffer.toString('utf8').trimEnd().split('\n');
    const last = lines[lines.length - 1] ?? '';
    const match = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?Z?/.exec(last);
    if (match === null) return null;
    const text = match[0].includes('T') ? match[0] : `${match[0].replace(' ', 'T')}Z`;
    const time = Date.parse(text.endsWith('Z') ? text : `${text}Z`);
    return Number.isNaN(time) ? null : time;
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Appends to each demo file what a running service would have written: lines for the time since its last line (at
 * most the last hour, for a data folder seeded long ago and copied, as the e2e template is), then one line now.
 */
export function appendDemoLogs(root: string, now: Date = new Date(), catchUp = false): number {
  const folder = path.join(root, DEMO_LOG_FOLDER);
  if (!existsSync(folder)) return 0;
  let written = 0;
  for (const [index, service] of DEMO_LOG_SERVICES.entries()) {
    const file = demoLogFile(root, service.app);
    if (!existsSync(file)) continue;
    const next = generator(now.getTime() + index);
    let text = '';
    if (catchUp) {
      const last = lastLineTime(file) ?? 0;
      const from = Math.max(last + 1000, now.getTime() - 60 * 60_000);
      if (from < now.getTime() - DEMO_APPEND_MS) text += linesBetween(service, from, now.getTime() - DEMO_APPEND_MS, 20_000, next);
    }
    text += `${demoLogLine(service, now, next)}\n`;
    appendFileSync(file, text);
    written += 1;
  }
  return written;
}

/** In the demo only: keeps the demo files growing while this process runs. Returns the function that stops it. */
export function startDemoLogAppender(root: string, onError: (error: unknown) => void): () => void {
  const run = (catchUp: boolean): void => {
    try {
      appendDemoLogs(root, new Date(), catchUp);
    } catch (error) {
      onError(error);
    }
  };
  run(true);
  const timer = setInterval(() => run(false), DEMO_APPEND_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The demo backend's spec: the shop's and payments' services and their Kubernetes items, each reading its own file. */
export function demoLogBackendSpec(): Record<string, unknown> {
  return {
    routes: [
      { kind: 'component', type: 'Service', labels: { namespace: 'shop' } },
      { kind: 'component', type: 'Service', labels: { namespace: 'payments' } },
      // One route per service that writes a file: an item is offered logs only where it has some.
      ...DEMO_LOG_SERVICES.map((service) => ({ kind: 'config', type: 'Kubernetes::Deployment', labels: { namespace: service.namespace, app: service.app } })),
    ],
    file: {
      // Relative to the log roots, so the spec stays right when DATA_DIR is copied or moved.
      paths: [`${DEMO_LOG_FOLDER}/{{ labels.app }}.log`],
      format: 'auto',
      labels: { source: 'demo' },
    },
  };
}
