import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../harness';

/**
 * Hole 9 of issue #31: scraper errors showed every role the server's absolute paths and the names of files outside
 * the scrape roots. An editor saves file and kubernetesFile scrapers whose globs meet a symlink to /etc/passwd, a
 * symlinked /etc, a dangling link, an unreadable file and a FIFO (and, stored before the save rules, a `..` escape),
 * runs them with Run Now, and a viewer reads everything the runs left behind.
 */
const JOB_TIMEOUT_MS = 20_000;
const POLL_MS = 100;

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) Reflect.deleteProperty(process.env, name);
  else process.env[name] = value;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('scraper errors and item sources name files relative to their scrape root, and nothing outside the roots', () => {
  let server: TestServer;
  let editor: string;
  let viewer: string;
  let root: string;
  let outside: string;
  const previousRoots = process.env.OPSDECK_SCRAPE_ROOTS;

  /** Strings no answer a viewer can read may contain. */
  const forbidden = (): string[] => [root, outside, path.basename(outside), server.running.context.config.dataDir, '/etc', 'passwd', 'fstab'];

  function expectNoServerPaths(label: string, text: string): void {
    for (const needle of forbidden()) expect(text, `${label} names ${needle}`).not.toContain(needle);
  }

  async function finishedRuns(scraperId: string, count: number): Promise<void> {
    const deadline = Date.now() + JOB_TIMEOUT_MS;
    for (;;) {
      const rows = await server.pool.query<{ done: number }>('select count(*)::integer as done from job_history where resource_id = $1 and time_end is not null', [scraperId]);
      if ((rows.rows[0]?.done ?? 0) >= count) return;
      if (Date.now() > deadline) throw new Error(`the scraper ${scraperId} did not finish ${count} runs`);
      await pause(POLL_MS);
    }
  }

  /** Runs the scraper once more through Run Now, as the editor, and returns the answer's text. */
  async function runNow(scraperId: string): Promise<string> {
    const before = await server.pool.query<{ n: number }>('select count(*)::integer as n from job_history where resource_id = $1', [scraperId]);
    const queued = await server.call('POST', `/api/config/scrapers/${scraperId}/run`, editor);
    expect(queued.status, queued.text).toBe(202);
    await finishedRuns(scraperId, (before.rows[0]?.n ?? 0) + 1);
    return queued.text;
  }

  /** Everything a viewer reads about one scraper's runs: its row with its last job, its job history, its items and their changes. */
  async function viewerAnswers(scraperId: string): Promise<Array<{ label: string; text: string; json: unknown }>> {
    const urls = [
      `/api/db/config_scrapers_with_status?id=eq.${scraperId}`,
      `/api/db/job_history?resource_id=eq.${scraperId}`,
      `/api/db/config_items?scraper_id=eq.${scraperId}&select=name,source`,
      `/api/db/config_changes?select=source,summary,config_items!inner(scraper_id)&config_items.scraper_id=eq.${scraperId}`,
    ];
    const answers: Array<{ label: string; text: string; json: unknown }> = [];
    for (const url of urls) {
      const reply = await server.call('GET', url, viewer);
      expect(reply.status, `${url}: ${reply.text}`).toBe(200);
      answers.push({ label: url, text: reply.text, json: reply.json });
    }
    return answers;
  }

  async function jobErrors(scraperId: string): Promise<string[]> {
    const reply = await server.call('GET', `/api/db/job_history?resource_id=eq.${scraperId}&order=created_at.desc&limit=1`, viewer);
    const [job] = reply.json as unknown as Array<{ details: { errors: string[] } }>;
    return job?.details.errors ?? [];
  }

  async function saveScraper(name: string, spec: Record<string, unknown>): Promise<string> {
    const saved = await server.call('POST', '/api/db/config_scrapers', editor, { name, spec }, { prefer: 'return=representation' });
    expect(saved.status, saved.text).toBe(201);
    return (saved.json as unknown as Array<{ id: string }>)[0]?.id ?? '';
  }

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'opsdeck-scrape-paths-')));
    outside = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'opsdeck-scrape-beyond-')));
    writeFileSync(path.join(outside, 'beyond-secret.yaml'), 'id: beyond\nkind: Secret\n');
    writeFileSync(path.join(root, 'ok.yaml'), 'id: fine\n');
    symlinkSync('/etc/passwd', path.join(root, 'users.yaml'));
    symlinkSync('/etc', path.join(root, 'system'));
    symlinkSync(path.join(outside, 'gone.yaml'), path.join(root, 'dangling.yaml'));
    writeFileSync(path.join(root, 'locked.yaml'), 'id: locked\n');
    // Root reads a file whatever its mode, so a FIFO stands in for a file nobody can read when the suite runs as root.
    chmodSync(path.join(root, 'locked.yaml'), 0o000);
    execFileSync('mkfifo', [path.join(root, 'pipe.yaml')]);
    mkdirSync(path.join(root, 'cluster'));
    writeFileSync(path.join(root, 'cluster', 'app.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\n  namespace: shop\n');
    process.env.OPSDECK_SCRAPE_ROOTS = root;
    server = await startTestServer({ workers: true });
    editor = await server.cookieFor('editor');
    viewer = await server.cookieFor('viewer');
  });
  afterAll(async () => {
    restoreEnv('OPSDECK_SCRAPE_ROOTS', previousRoots);
    await server.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('names a symlink out of the root by its own name, once for a symlinked folder, never by its target or the files behind it', async () => {
    const id = await saveScraper('paths-file', { file: [{ type: 'File::Config', id: '$.id', format: 'yaml', icon: 'file', paths: ['*.yaml', 'system/*'] }] });
    await finishedRuns(id, 1);
    const runAnswer = await runNow(id);
    expectNoServerPaths('the Run Now answer', runAnswer);

    const errors = await jobErrors(id);
    // A glob lists neither dangling links nor FIFOs (the kubernetesFile case below names them); root reads a 000 file.
    const unreadable = process.getuid?.() === 0 ? [] : ['file[0] locked.yaml: permission denied (EACCES)'];
    expect(errors.sort()).toEqual(
      ['file[0] system: is a symlink that leads outside the scrape roots: not read', 'file[0] users.yaml: is a symlink that leads outside the scrape roots: not read', ...unreadable].sort(),
    );
    for (const answer of await viewerAnswers(id)) expectNoServerPaths(answer.label, answer.text);
    const items = await server.call('GET', `/api/db/config_items?scraper_id=eq.${id}&select=name,source&order=name`, viewer);
    expect(items.json).toEqual(expect.arrayContaining([{ name: 'fine', source: 'file:ok.yaml' }]));
  });

  it('names a kubernetesFile scraper\'s missing, escaping and unreadable files by their path under the root', async () => {
    const id = await saveScraper('paths-kubernetes-file', {
      kubernetesFile: [{ files: [{ path: ['cluster/app.yaml', 'users.yaml', 'missing.yaml', 'dangling.yaml', 'pipe.yaml', `${root}/locked.yaml`] }] }],
    });
    await finishedRuns(id, 1);
    expectNoServerPaths('the Run Now answer', await runNow(id));
    expect(await jobErrors(id)).toEqual(
      expect.arrayContaining([
        'kubernetesFile[0] users.yaml: is a symlink that leads outside the scrape roots: not read',
        'kubernetesFile[0] missing.yaml: not found',
        'kubernetesFile[0] dangling.yaml: not found',
        'kubernetesFile[0] pipe.yaml: not a regular file',
        // Written as an absolute path inside the root, shown under it.
        ...(process.getuid?.() === 0 ? [] : ['kubernetesFile[0] locked.yaml: permission denied (EACCES)']),
      ]),
    );
    for (const answer of await viewerAnswers(id)) {
      // The spec holds the absolute path its writer typed inside the root; only the run's own output is judged here.
      const text = answer.label.startsWith('/api/db/config_scrapers') ? JSON.stringify((answer.json as unknown as Array<{ job_details: unknown }>)[0]?.job_details) : answer.text;
      expectNoServerPaths(answer.label, text);
    }
  });

  it("refuses a `..` escape at save, and a stored one runs without naming where it leads", async () => {
    const climbing = `../${path.basename(outside)}/beyond-secret.yaml`;
    const refused = await server.call('POST', '/api/db/config_scrapers', editor, { name: 'paths-climb', spec: { file: [{ type: 'File::Config', id: '$.id', format: 'yaml', icon: 'file', paths: [climbing] }] } });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ code: 'OD_SCRAPER_SPEC' });
    expect(refused.text).not.toContain(root);

    // A spec stored before the save rules existed.
    const stored = await server.pool.query<{ id: string }>(`insert into config_scrapers (name, spec) values ('paths-climb-stored', $1) returning id`, [
      JSON.stringify({ file: [{ type: 'File::Config', id: '$.id', paths: [climbing] }], kubernetesFile: [{ files: [{ path: [climbing, '/etc/passwd'] }] }] }),
    ]);
    const id = stored.rows[0]?.id ?? '';
    expectNoServerPaths('the Run Now answer', await runNow(id));
    expect(await jobErrors(id)).toEqual(
      expect.arrayContaining([
        'file[0] paths[0]: names a path outside the scrape roots (OPSDECK_SCRAPE_ROOTS): not read',
        'kubernetesFile[0] a path outside the scrape roots: is outside the scrape roots (OPSDECK_SCRAPE_ROOTS): not read',
      ]),
    );
    for (const answer of await viewerAnswers(id)) {
      const text = answer.label.startsWith('/api/db/config_scrapers') ? JSON.stringify((answer.json as unknown as Array<{ job_details: unknown }>)[0]?.job_details) : answer.text;
      expectNoServerPaths(answer.label, text);
    }
  });
});
