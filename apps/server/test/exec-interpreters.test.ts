import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaybookRun } from '@opsdeck/shared';
import { CheckScheduler } from '../src/modules/health/check-scheduler';
import { PlaybookWorker } from '../src/modules/playbooks/playbook-worker';
import { startTestServer, waitFor, type TestServer } from './harness';

const IS_ROOT = process.getuid?.() === 0;

/**
 * Issue #32: Mission Control runs an exec script with the interpreter its #! line names (duty's shell package); every
 * script here went to bash, so a Python script failed on its first line. Exec checks and exec playbook actions now run
 * python and node scripts with them, in the same sandbox, and an interpreter this server does not run is refused at save.
 */
describe.runIf(IS_ROOT)('exec scripts run with the interpreter their #! line names', () => {
  let server: TestServer;
  let admin: string;
  const previousRole = process.env.OPSDECK_ROLE;

  beforeAll(async () => {
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
    admin = await server.cookieFor('admin');
  });
  afterAll(async () => {
    if (previousRole === undefined) Reflect.deleteProperty(process.env, 'OPSDECK_ROLE');
    else process.env.OPSDECK_ROLE = previousRole;
    await server.close();
  });

  async function lastStatus(yaml: string, name: string): Promise<{ status: boolean; message: string | null; details: { stdout?: string } }> {
    const created = await server.call('POST', '/api/canary/canaries', admin, { name, yaml });
    expect(created.status, created.text).toBe(201);
    const checkId = String((created.json.checks as Array<{ id: string }>)[0]?.id);
    const scheduler = new CheckScheduler({ pool: server.pool, secretKey: server.running.context.config.secretKey, bus: server.running.context.bus, concurrency: 4 });
    return waitFor(
      'the check to run',
      async () => {
        await scheduler.runDue();
        const found = await server.pool.query<{ status: boolean; message: string | null; details: { stdout?: string } }>(
          'select status, message, details from check_statuses where check_id = $1 order by time desc limit 1',
          [checkId],
        );
        return found.rows[0] ?? null;
      },
      30_000,
    );
  }

  it('runs an exec check whose #! line names python3 with python, and judges its output with test.expr', async () => {
    const yaml = [
      'schedule: "@every 1h"',
      'exec:',
      '  - name: python-check',
      '    script: |',
      '      #!/usr/bin/env python3',
      '      import sys',
      '      print("hello from", sys.implementation.name)',
      '    test:',
      '      expr: results.stdout == "hello from cpython"',
    ].join('\n');
    const status = await lastStatus(yaml, 'python-exec');
    expect(status.details.stdout?.trim()).toBe('hello from cpython');
    expect(status.status).toBe(true);
  });

  it('fails an exec check whose interpreter is not installed, saying so before the run', async () => {
    const status = await lastStatus(['schedule: "@every 1h"', 'exec:', '  - name: pwsh-check', '    script: |', '      #! pwsh', '      Write-Host hi'].join('\n'), 'pwsh-exec');
    expect(status.status).toBe(false);
    expect(status.message).toContain('pwsh, which its #! line names, is not installed on this server');
  });

  it('refuses at save a script whose #! line names an interpreter this server does not run, for checks, playbooks and scrapers', async () => {
    const script = '#!/usr/bin/env ruby\nputs "hi"';
    const canary = await server.call('POST', '/api/canary/canaries', admin, { name: 'ruby-exec', spec: { exec: [{ name: 'ruby', script }] } });
    expect(canary.status, canary.text).toBe(400);
    expect(canary.text).toContain('ruby, which this server does not run scripts with');
    const playbook = await server.call('POST', '/api/db/playbooks', admin, { name: 'ruby-playbook', spec: { actions: [{ name: 'ruby', exec: { script } }] } });
    expect(playbook.status, playbook.text).toBe(400);
    expect(playbook.text).toContain('ruby, which this server does not run scripts with');
    const scraper = await server.call('POST', '/api/db/config_scrapers', admin, { name: 'ruby-scraper', spec: { exec: [{ type: 'Custom::Thing', id: '$.id', name: '$.name', script }] } });
    expect(scraper.status, scraper.text).toBe(400);
    expect(scraper.text).toContain('ruby, which this server does not run scripts with');
  });

  it("saves a templated pwsh script as Mission Control writes one (its own delimiters too), and says at run time when pwsh is not installed", async () => {
    const script = ['#! pwsh', '# gotemplate: left-delim=$[[ right-delim=]]', '$message = "$[[.params.who]]"', 'Write-Host "{{  $message }}"'].join('\n');
    const saved = await server.call('POST', '/api/db/playbooks', admin, { name: 'pwsh-action', spec: { actions: [{ name: 'greet', exec: { script } }, { name: 'item', exec: { script: '#! pwsh\n@{item= "{{.params.who}}"} | ConvertTo-JSON' } }], parameters: [{ name: 'who' }] } }, { prefer: 'return=representation' });
    expect(saved.status, saved.text).toBe(201);
    if (existsSync('/usr/bin/pwsh') || existsSync('/usr/local/bin/pwsh')) return;
    const playbookId = String((saved.json as unknown as Array<{ id: string }>)[0]?.id);
    const requested = await server.call('POST', '/api/playbook/run', admin, { id: playbookId, params: { who: 'ada' } });
    expect(requested.status, requested.text).toBe(201);
    const worker = new PlaybookWorker({ pool: server.pool, secretKey: server.running.context.config.secretKey, leaseMs: 5000, onError: (error) => console.error(error) });
    const run = await waitFor(
      'the run to end',
      async () => {
        await worker.runDue();
        const found = (await server.call('GET', `/api/playbook/run/${String(requested.json.run_id)}`, admin)).json as unknown as PlaybookRun;
        return ['completed', 'failed'].includes(found.status) ? found : null;
      },
      30_000,
    );
    expect(run.status).toBe('failed');
    expect(JSON.stringify(run.actions[0]?.error)).toContain('pwsh, which its #! line names, is not installed on this server');
  });

  it('runs a playbook exec action whose #! line names node with node, in the sandbox, its parameter passed as data', async () => {
    const saved = await server.call(
      'POST',
      '/api/db/playbooks',
      admin,
      { name: 'node-action', spec: { actions: [{ name: 'greet', exec: { script: '#!/usr/bin/env node\nconsole.log(`uid ${process.getuid()} ${process.env.WHO}`)', env: [{ name: 'WHO', value: '{{.params.who}}' }] } }], parameters: [{ name: 'who' }] } },
      { prefer: 'return=representation' },
    );
    expect(saved.status, saved.text).toBe(201);
    const playbookId = String((saved.json as unknown as Array<{ id: string }>)[0]?.id);
    const requested = await server.call('POST', '/api/playbook/run', admin, { id: playbookId, params: { who: '$(touch /tmp/pwned) ada' } });
    expect(requested.status, requested.text).toBe(201);
    const runId = String(requested.json.run_id);
    const worker = new PlaybookWorker({ pool: server.pool, secretKey: server.running.context.config.secretKey, leaseMs: 5000, onError: (error) => console.error(error) });
    const run = await waitFor(
      'the run to end',
      async () => {
        await worker.runDue();
        const found = (await server.call('GET', `/api/playbook/run/${runId}`, admin)).json as unknown as PlaybookRun;
        return ['completed', 'failed'].includes(found.status) ? found : null;
      },
      30_000,
    );
    expect(run.status, JSON.stringify(run.actions[0]?.error)).toBe('completed');
    const stdout = String(run.actions[0]?.result?.stdout ?? '').trim();
    expect(stdout).toMatch(/^uid \d+ \$\(touch \/tmp\/pwned\) ada$/);
    expect(stdout).not.toMatch(/^uid 0 /);
  });
});
