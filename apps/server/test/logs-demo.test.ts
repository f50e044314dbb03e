import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { LogsResponse } from '@opsdeck/shared';
import { appendDemoLogs, DEMO_LOG_BACKEND_NAME, writeDemoLogs } from '../src/modules/logs';
import { startTestServer, type TestServer } from './harness';

describe('demo log backend', () => {
  let server: TestServer;
  let viewer: string;
  const root = path.join(inject('testRoot'), 'logs');

  beforeAll(async () => {
    server = await startTestServer();
    viewer = await server.cookieFor('viewer');
    // The template was seeded without a data folder; the files are what `npm start` writes under DATA_DIR/logs/demo.
    writeDemoLogs(root);
  });
  afterAll(async () => {
    await server.close();
  });

  it('seeds a file backend whose paths are relative to the log roots', async () => {
    const result = await server.pool.query<{ spec: { file: { paths: string[] }; routes: unknown[] }; created_by: string | null }>(
      'select spec, created_by from logging_backends where name = $1 and deleted_at is null',
      [DEMO_LOG_BACKEND_NAME],
    );
    expect(result.rows).toHaveLength(1);
    const paths = result.rows[0]?.spec.file.paths ?? [];
    expect(paths.every((entry) => !path.isAbsolute(entry))).toBe(true);
    expect(result.rows[0]?.created_by).not.toBeNull();
  });

  it('offers the demo services of the topology as components with logs', async () => {
    const result = await server.pool.query<{ name: string; log_selectors: Array<{ name: string }> }>(
      `select name, log_selectors from components_with_logs where type = 'Service' order by name`,
    );
    const names = result.rows.filter((row) => row.log_selectors.some((selector) => selector.name === DEMO_LOG_BACKEND_NAME)).map((row) => row.name);
    expect(names).toEqual(expect.arrayContaining(['cart', 'checkout', 'frontend', 'ledger', 'payments-api']));
  });

  it('answers recent lines for a demo component, newest first', async () => {
    const component = await server.pool.query<{ id: string }>(`select id from components where name = 'checkout' and type = 'Service' and deleted_at is null limit 1`);
    // The folder is shared with the suite's other files and may have been written long before; the appender's line of
    // now is the newest, whenever this test runs.
    const appendedAt = new Date();
    appendDemoLogs(root, appendedAt);
    const reply = await server.call('GET', `/api/logs?id=${component.rows[0]?.id ?? ''}&start=1h`, viewer);
    expect(reply.status, reply.text).toBe(200);
    const body = reply.json as unknown as LogsResponse;
    expect(body.backend.name).toBe(DEMO_LOG_BACKEND_NAME);
    expect(body.lines.length).toBeGreaterThan(100);
    // Timestamps are written to the second.
    expect(Date.parse(body.lines[0]?.timestamp ?? '')).toBeGreaterThanOrEqual(appendedAt.getTime() - 1000);
    expect(body.lines[0]?.labels).toMatchObject({ source: 'demo', file: 'demo/checkout.log', service: 'checkout' });
    const week = await server.call('GET', `/api/logs?id=${component.rows[0]?.id ?? ''}&start=7d&query=error`, viewer);
    const errors = week.json as unknown as LogsResponse;
    expect(errors.lines.length).toBeGreaterThan(20);
    expect(errors.lines.every((line) => line.message.toLowerCase().includes('error') || line.labels.level === 'error' || JSON.stringify(line.labels).toLowerCase().includes('error'))).toBe(true);
  });

  it('keeps the files growing with one line per service', () => {
    const file = path.join(root, 'demo', 'cart.log');
    const before = readFileSync(file, 'utf8').split('\n').length;
    expect(appendDemoLogs(root, new Date())).toBe(5);
    expect(readFileSync(file, 'utf8').split('\n').length).toBe(before + 1);
  });
});
