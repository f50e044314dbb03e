import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaybookRun } from '@opsdeck/shared';
import { CheckScheduler } from '../src/modules/health/check-scheduler';
import { PlaybookWorker } from '../src/modules/playbooks/playbook-worker';
import { startTestServer, waitFor, type TestServer } from './harness';

const IS_ROOT = process.getuid?.() === 0;
const TOKEN = 'artifact-secret-4f9c2b';

interface Listed {
  id: string;
  path: string;
  filename: string;
  size: number;
}

describe.runIf(IS_ROOT)('exec artifacts: the files a check or a playbook action kept', () => {
  let server: TestServer;
  let admin: string;
  const previousRole = process.env.OPSDECK_ROLE;

  async function download(url: string): Promise<{ status: number; body: string; headers: Headers }> {
    const response = await fetch(`${server.url}${url}`, { headers: { cookie: admin } });
    return { status: response.status, body: await response.text(), headers: response.headers };
  }

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

  it("keeps an exec check's newest run's files and stdout, secrets scrubbed, as a download the browser never renders", async () => {
    const yaml = [
      'schedule: "@every 1h"',
      'exec:',
      '  - name: with-artifacts',
      '    env:',
      '      - name: API_TOKEN',
      `        value: ${TOKEN}`,
      '    script: |',
      '      mkdir -p out && echo "token=$API_TOKEN <script>x</script>" > out/report.html && echo "run $RANDOM" > out/run.txt && echo printed',
      '    artifacts:',
      '      - path: out/*',
      '      - path: /dev/stdout',
      '      - path: /etc/hostname',
    ].join('\n');
    const created = await server.call('POST', '/api/canary/canaries', admin, { name: 'artifacts', yaml });
    expect(created.status, created.text).toBe(201);
    const checkId = String((created.json.checks as Array<{ id: string }>)[0]?.id);
    const scheduler = new CheckScheduler({ pool: server.pool, secretKey: server.running.context.config.secretKey, bus: server.running.context.bus, concurrency: 4 });
    // The demo's checks are due too, and one pass claims a bounded batch: pass until this check's run is recorded.
    const runOnce = async (after: Date): Promise<void> => {
      await waitFor(
        'the check to run',
        async () => {
          await scheduler.runDue();
          const found = await server.pool.query('select 1 from check_statuses where check_id = $1 and time >= $2', [checkId, after]);
          return found.rows.length > 0 ? true : null;
        },
        30_000,
      );
    };
    await runOnce(new Date(0));
    const listed = (await server.call('GET', `/api/canary/checks/${checkId}/artifacts`, admin)).json as unknown as Listed[];
    expect(listed.map((artifact) => artifact.filename)).toEqual(['stdout', 'report.html', 'run.txt']);
    const report = listed.find((artifact) => artifact.filename === 'report.html');
    const got = await download(`/api/canary/artifacts/${report?.id ?? ''}`);
    expect(got.status).toBe(200);
    expect(got.body).toBe('token=[REDACTED] <script>x</script>\n');
    expect(got.headers.get('content-type')).toBe('application/octet-stream');
    expect(got.headers.get('content-disposition')).toBe('attachment; filename="report.html"');
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    const status = await server.pool.query<{ details: { artifactNotes?: string[] } }>('select details from check_statuses where check_id = $1 order by time desc limit 1', [checkId]);
    expect(status.rows[0]?.details.artifactNotes).toEqual(["/etc/hostname: not kept, the script's user does not own it"]);

    const rerun = new Date();
    await server.pool.query('update checks set next_runtime = now() where id = $1', [checkId]);
    await runOnce(rerun);
    const again = (await server.call('GET', `/api/canary/checks/${checkId}/artifacts`, admin)).json as unknown as Listed[];
    expect(again).toHaveLength(3);
    expect(again.map((artifact) => artifact.id)).not.toContain(report?.id);
  });

  it("keeps a playbook exec action's files with its run, downloadable only through the run's own route, and never through the data API", async () => {
    const saved = await server.call(
      'POST',
      '/api/db/playbooks',
      admin,
      { name: 'keeps-files', spec: { actions: [{ name: 'write', exec: { script: 'mkdir -p logs && echo "{{.params.who}} was here" > logs/who.log', artifacts: [{ path: 'logs/*.log' }, { path: '/tmp/none-such-*' }] } }], parameters: [{ name: 'who' }] } },
      { prefer: 'return=representation' },
    );
    expect(saved.status, saved.text).toBe(201);
    const playbookId = String((saved.json as unknown as Array<{ id: string }>)[0]?.id);
    const requested = await server.call('POST', '/api/playbook/run', admin, { id: playbookId, params: { who: 'ada' } });
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
    expect(run.status).toBe('completed');
    const action = run.actions[0];
    expect(action?.artifacts.map((artifact) => artifact.filename)).toEqual(['who.log']);
    expect(action?.result?.artifactNotes).toEqual(['/tmp/none-such-*: no file matches']);
    const id = action?.artifacts[0]?.id ?? '';
    expect((await download(`/api/playbook/run/artifacts/${id}`)).body).toBe('ada was here\n');
    expect((await download(`/api/canary/artifacts/${id}`)).status).toBe(404);
    const direct = await server.call('GET', '/api/db/exec_artifacts?select=content', admin);
    expect(direct.status).toBeGreaterThanOrEqual(400);
    expect(direct.text).not.toContain('ada was here');
  });
});
