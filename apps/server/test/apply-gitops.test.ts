import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GITOPS_FOLDER_PROPERTY } from '../src/modules/apply';
import { startTestServer, type TestServer } from './harness';

function canary(name: string, url = 'http://127.0.0.1:9/'): string {
  return `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: ${name}
  namespace: gitops
spec:
  http:
    - name: probe
      url: ${url}
`;
}

interface JobRow {
  status: string;
  details: { source: string; summary: Record<string, number>; errors: string[] };
}

describe('the GitOps folder (security.gitops.folder)', () => {
  let server: TestServer;
  let admin: string;
  let editor: string;
  let root = '';
  let folder = '';

  const liveSources = async () =>
    (await server.pool.query<{ name: string; source: string }>(`select name, source from canaries where namespace = 'gitops' and deleted_at is null order by name`)).rows;
  const lastJob = async (): Promise<JobRow | undefined> =>
    (await server.pool.query<JobRow>(`select status, details from job_history where name = 'GitopsReconcile' order by created_at desc, time_start desc limit 1`)).rows[0];
  const jobs = async () => Number((await server.pool.query<{ n: string }>(`select count(*) as n from job_history where name = 'GitopsReconcile'`)).rows[0]?.n ?? 0);
  /**
   * Makes the next poll run the reconcile now instead of in five minutes, and waits for its Job History row. The due
   * time is set again at every look: a run still finishing writes its own next due time after its Job History row,
   * and would otherwise put back the five minutes this set.
   */
  const reconcileAgain = async () => {
    const before = await jobs();
    const rearmAndCount = async () => {
      await server.pool.query(`update maintenance_jobs set next_runtime = now() where name = 'gitops'`);
      return jobs();
    };
    await expect.poll(rearmAndCount, { timeout: 20_000 }).toBeGreaterThan(before);
    return lastJob();
  };
  const setFolder = (value: string, cookie = admin) =>
    server.call('POST', '/api/db/properties', cookie, { name: GITOPS_FOLDER_PROPERTY, value }, { prefer: 'resolution=merge-duplicates' });

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'gitops-root-')));
    folder = path.join(root, 'repo');
    mkdirSync(path.join(folder, 'canaries'), { recursive: true });
    writeFileSync(path.join(folder, 'canaries', 'web.yaml'), canary('web'));
    writeFileSync(path.join(folder, 'api.yml'), canary('api'));
    server = await startTestServer({ workers: true, env: { OPSDECK_GITOPS_ROOTS: root } });
    admin = await server.cookieFor('admin');
    editor = await server.cookieFor('editor');
  });

  afterAll(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('lets only an administrator name the folder', async () => {
    const refused = await setFolder(folder, editor);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.json.code).toBe('OD_PROPERTY_ADMIN_ONLY');
  });

  it('applies the folder on its schedule under source gitops:<folder> and records the run in Job History', async () => {
    const before = await jobs();
    const named = await setFolder(folder);
    expect(named.status, named.text).toBe(201);
    await expect.poll(jobs, { timeout: 20_000 }).toBeGreaterThan(before);
    expect(await liveSources()).toEqual([
      { name: 'api', source: `gitops:${folder}` },
      { name: 'web', source: `gitops:${folder}` },
    ]);
    expect((await lastJob())?.status).toBe('SUCCESS');
  });

  it('prunes what the folder no longer holds', async () => {
    rmSync(path.join(folder, 'api.yml'));
    const job = await reconcileAgain();
    expect(job?.details.summary).toMatchObject({ unchanged: 1, pruned: 1 });
    expect((await liveSources()).map((row) => row.name)).toEqual(['web']);
  });

  it('records a refused document in Job History naming file, document index and field, and changes nothing', async () => {
    writeFileSync(path.join(folder, 'canaries', 'web.yaml'), `${canary('web2')}---\n${canary('web').replace('  http:', '  schedule: "8 46 *"\n  http:')}`);
    const job = await reconcileAgain();
    expect(job?.status).toBe('FAILED');
    expect(job?.details.errors[0]).toMatch(/canaries\/web\.yaml document 2: .*schedule/);
    expect((await liveSources()).map((row) => row.name)).toEqual(['web']);
  });

  it('refuses a folder outside the roots the operator allowed, whatever an administrator types', async () => {
    const outside = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'gitops-outside-')));
    writeFileSync(path.join(outside, 'stolen.yaml'), canary('stolen'));
    try {
      for (const value of [outside, `${folder}/../../${path.basename(outside)}`]) {
        expect((await setFolder(value)).status).toBe(201);
        const job = await reconcileAgain();
        expect(job?.status).toBe('FAILED');
        expect(job?.details.errors[0]).toContain('outside the folders this server may read');
      }
      expect((await liveSources()).map((row) => row.name)).toEqual(['web']);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
