import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { queryFileBackend, type LogQuery } from '../modules/logs';

const FILE_BYTES = 1024 * 1024 * 1024;
/** Bytes handed to one write: big buffers keep the 1 GB file to seconds, not minutes. */
const WRITE_BYTES = 16 * 1024 * 1024;
/** One line in a hundred holds the term searched for. */
const NEEDLE = 'Payment-Declined';
const NEEDLE_EVERY = 100;
const LIMIT = 1000;
const GOAL_SECONDS = 1;
const SPAN_MS = 24 * 60 * 60_000;

export interface LogsBenchFigure {
  label: string;
  seconds: number;
  lines: number;
  truncated: boolean;
}

const MESSAGES = [
  'GET /api/catalog 200 in 12ms user=4411 region=eu-west-1',
  'POST /api/checkout/confirm 201 in 87ms order=ORD-391245',
  'cache miss for product 77312, loading from the database',
  'worker heartbeat: 14 jobs queued, 3 running, 0 failed',
];

/**
 * Writes about 1 GB of plain log lines, a timestamp each, in time order over the last day; every hundredth line holds
 * the search term. Returns the number of lines.
 */
function writeBigLog(file: string, now: number): number {
  const sample = `2026-01-01 00:00:00 INFO  ${MESSAGES[0] ?? ''}\n`;
  const estimate = Math.floor(FILE_BYTES / Buffer.byteLength(sample));
  const step = SPAN_MS / estimate;
  const descriptor = openSync(file, 'w');
  let written = 0;
  let index = 0;
  try {
    while (written < FILE_BYTES) {
      const parts: string[] = [];
      let size = 0;
      while (size < WRITE_BYTES) {
        const time = new Date(now - SPAN_MS + index * step).toISOString().replace('T', ' ').slice(0, 19);
        const line =
          index % NEEDLE_EVERY === 0
            ? `${time} ERROR payment ${NEEDLE} for order ORD-${index} by the acquirer\n`
            : `${time} INFO  ${MESSAGES[index % MESSAGES.length] ?? ''}\n`;
        parts.push(line);
        size += line.length;
        index += 1;
      }
      written += writeSync(descriptor, Buffer.from(parts.join(''), 'latin1'));
    }
  } finally {
    closeSync(descriptor);
  }
  return index;
}

async function timed(label: string, run: () => ReturnType<typeof queryFileBackend>): Promise<LogsBenchFigure> {
  const started = performance.now();
  const result = await run();
  return { label, seconds: (performance.now() - started) / 1000, lines: result.lines.length, truncated: result.truncated };
}

/** The file backend's read (the one GET /api/logs runs for a file backend) against a 1 GB file in a temporary root. */
export async function benchLogs(): Promise<{ lines: number; figures: LogsBenchFigure[] }> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-bench-logs-'));
  try {
    const now = Date.now();
    const lines = writeBigLog(path.join(root, 'big.log'), now);
    const spec = { paths: ['big.log'], format: 'plain' as const };
    const query = (search: string, startMs: number): LogQuery => ({
      subject: { kind: 'component', id: '00000000-0000-4000-8000-000000000000', name: 'bench', type: 'Service', labels: {}, tags: {} },
      selectorLabels: {},
      search,
      start: new Date(now - startMs),
      end: new Date(now + 1000),
      limit: LIMIT,
      signal: AbortSignal.timeout(10_000),
    });
    const figures = [
      await timed(`first ${LIMIT} lines matching '${NEEDLE}' (1%), last 1d`, () => queryFileBackend(spec, query(NEEDLE.toLowerCase(), SPAN_MS), [root], 10_000)),
      await timed(`first ${LIMIT} lines, no search, last 1d`, () => queryFileBackend(spec, query('', SPAN_MS), [root], 10_000)),
      await timed(`a term in no line, last 15m (scan to start)`, () => queryFileBackend(spec, query('no-such-term', 15 * 60_000), [root], 10_000)),
    ];
    return { lines, figures };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export async function reportLogs(heading: (title: string) => void): Promise<void> {
  heading('Logs');
  const { lines, figures } = await benchLogs();
  console.log(`A 1 GB plain log file (${lines.toLocaleString('en')} lines over 24 h) read by the file backend from its end:`);
  for (const figure of figures) {
    console.log(
      `${figure.label.padEnd(56)} ${figure.seconds.toFixed(3)} s, ${figure.lines} lines${figure.truncated ? ', truncated' : ''} (goal < ${GOAL_SECONDS} s)`,
    );
  }
}
