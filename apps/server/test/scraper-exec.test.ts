import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection } from '../src/modules/connections/connection-store';
import { runScrape } from '../src/modules/scrapers/run-scrape';
import { syncScrapeSchedule } from '../src/modules/scrapers/scrape-scheduler';
import { startTestServer, type TestServer } from './harness';
import { sandboxRepository } from './fixtures/git-repository';

/**
 * The exec scraper (issue #32 item 4, ADR 0072): a script whose standard output becomes config items, run in the exec
 * sandbox of ADR 0042, and saved, changed or removed only by administrators, whichever route or filter is used.
 */

const SCRIPT = `cat <<'EOF'
[{"id": "i-1", "name": "web-1", "state": "running"}, {"id": "i-2", "name": "db-1", "state": "stopped"}]
EOF`;
const execSpec = { schedule: '@every 5m', exec: [{ type: 'AWS::EC2::Instance', id: '$.id', name: '$.name', script: SCRIPT }] };

describe('exec scrapers', () => {
  let server: TestServer;
  let root: string;
  let admin: string;
  let editor: string;
  const previousRoots = process.env.OPSDECK_SCRAPE_ROOTS;

  async function saveAsAdmin(name: string, spec: unknown): Promise<string> {
    const saved = await server.call('POST', '/api/db/config_scrapers', admin, { name, spec }, { prefer: 'return=representation' });
    expect(saved.status, saved.text).toBe(201);
    const id = (saved.json as unknown as Array<{ id: string }>)[0]?.id;
    if (id === undefined) throw new Error('no scraper id');
    return id;
  }

  async function storedSpec(id: string): Promise<{ name: string; spec: unknown; deleted_at: string | null } | undefined> {
    const row = await server.pool.query<{ name: string; spec: unknown; deleted_at: string | null }>('select name, spec, deleted_at from config_scrapers where id = $1', [id]);
    return row.rows[0];
  }

  async function runById(id: string) {
    const row = await server.pool.query<{ id: string; name: string; spec: unknown; agent_id: string | null }>('select id, name, spec, agent_id from config_scrapers where id = $1', [id]);
    const scraper = row.rows[0];
    if (scraper === undefined) throw new Error('no scraper');
    return runScrape({ pool: server.pool, secretKey: server.running.context.config.secretKey, roots: [root], ownDatabaseUrl: null }, scraper);
  }

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'opsdeck-scrape-exec-')));
    process.env.OPSDECK_SCRAPE_ROOTS = root;
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    editor = await server.cookieFor('editor');
  });

  afterAll(async () => {
    if (previousRoots === undefined) Reflect.deleteProperty(process.env, 'OPSDECK_SCRAPE_ROOTS');
    else process.env.OPSDECK_SCRAPE_ROOTS = previousRoots;
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  describe('an editor cannot create or change one by any route (attack)', () => {
    it('refuses an exec scraper posted by an editor, bare, as a resource, invalid or in a bulk upsert, and saves nothing', async () => {
      const attempts: Array<{ label: string; body: unknown; query?: string; headers?: Record<string, string> }> = [
        { label: 'bare spec', body: { name: 'e-bare', spec: execSpec } },
        { label: 'ScrapeConfig resource', body: { name: 'e-resource', spec: { apiVersion: 'configs.flanksource.com/v1', kind: 'ScrapeConfig', spec: execSpec } } },
        { label: 'an exec list that does not validate', body: { name: 'e-invalid', spec: { exec: 'id > /tmp/x' } } },
        {
          label: 'bulk upsert beside a harmless row',
          body: [
            { name: 'e-bulk-ok', spec: { file: [{ type: 'T', id: '$.id', paths: ['*.json'] }] } },
            { name: 'e-bulk', spec: execSpec },
          ],
          headers: { prefer: 'resolution=merge-duplicates' },
        },
      ];
      for (const attempt of attempts) {
        const refused = await server.call('POST', '/api/db/config_scrapers', editor, attempt.body, attempt.headers ?? {});
        expect(refused.status, attempt.label).toBe(403);
        expect(refused.json, attempt.label).toMatchObject({ code: 'OD_SCRAPER_EXEC_FORBIDDEN', details: 'spec.exec' });
      }
      const stored = await server.pool.query(`select name from config_scrapers where name like 'e-%'`);
      expect(stored.rows).toEqual([]);
    });

    it("refuses an editor's change, rename, soft delete or delete of an administrator's exec scraper, by id or by filter", async () => {
      const id = await saveAsAdmin('admin-exec', execSpec);
      const before = await storedSpec(id);
      const attempts: Array<{ label: string; method: 'PATCH' | 'DELETE'; url: string; body?: unknown }> = [
        { label: 'script changed', method: 'PATCH', url: `/api/db/config_scrapers?id=eq.${id}`, body: { spec: { exec: [{ ...execSpec.exec[0], script: 'id' }] } } },
        { label: 'exec swapped for a file source', method: 'PATCH', url: `/api/db/config_scrapers?id=eq.${id}`, body: { spec: { file: [{ type: 'T', id: '$.id', paths: ['*.json'] }] } } },
        { label: 'renamed', method: 'PATCH', url: `/api/db/config_scrapers?id=eq.${id}`, body: { name: 'renamed' } },
        { label: 'renamed by a name filter', method: 'PATCH', url: '/api/db/config_scrapers?name=like.admin-*', body: { description: 'mine now' } },
        { label: 'soft deleted', method: 'PATCH', url: `/api/db/config_scrapers?id=eq.${id}`, body: { deleted_at: new Date().toISOString() } },
        { label: 'deleted', method: 'DELETE', url: `/api/db/config_scrapers?id=eq.${id}` },
      ];
      for (const attempt of attempts) {
        const refused = await server.call(attempt.method, attempt.url, editor, attempt.body);
        expect(refused.status, `${attempt.label}: ${refused.text}`).toBe(403);
      }
      expect(await storedSpec(id)).toEqual(before);
    });

    it('refuses an editor who turns their own file scraper into an exec scraper', async () => {
      const saved = await server.call('POST', '/api/db/config_scrapers', editor, { name: 'editor-files', spec: { file: [{ type: 'T', id: '$.id', paths: ['*.json'] }] } }, { prefer: 'return=representation' });
      expect(saved.status, saved.text).toBe(201);
      const id = (saved.json as unknown as Array<{ id: string }>)[0]?.id;
      const refused = await server.call('PATCH', `/api/db/config_scrapers?id=eq.${id}`, editor, { spec: execSpec });
      expect(refused.status).toBe(403);
      expect(refused.json).toMatchObject({ code: 'OD_SCRAPER_EXEC_FORBIDDEN' });
      expect((await storedSpec(id ?? ''))?.spec).toEqual({ file: [{ type: 'T', id: '$.id', paths: ['*.json'] }] });
    });
  });

  it('lets an administrator save one, refusing the exec fields this server does not run by name', async () => {
    await saveAsAdmin('admin-exec-ok', execSpec);
    await saveAsAdmin('admin-exec-git', { exec: [{ ...execSpec.exec[0], checkout: { url: 'https://git.test/org/repo', branch: 'main', depth: 1 } }] });
    await saveAsAdmin('admin-exec-git-connection', { exec: [{ ...execSpec.exec[0], checkout: { url: 'https://org@git.test/org/repo', connection: 'connection://mc/git' } }] });
    const refusals: Array<[Record<string, unknown>, string, string]> = [
      [{ url: 'https://git.test/r', password: 'x' }, 'OD_SCRAPER_FIELD', 'spec.exec[0].checkout.password'],
      [{ url: 'https://bot:t0ken@git.test/r' }, 'OD_SCRAPER_SPEC', 'spec.exec[0].checkout.url'],
      [{ url: 'ssh://git@git.test/r' }, 'OD_SCRAPER_SPEC', 'spec.exec[0].checkout.url'],
      [{ url: 'https://git.test/r', branch: '--upload-pack=touch /tmp/x' }, 'OD_SCRAPER_SPEC', 'spec.exec[0].checkout.branch'],
    ];
    for (const [checkout, code, details] of refusals) {
      const refused = await server.call('POST', '/api/db/config_scrapers', admin, { name: 'admin-exec-git-refused', spec: { exec: [{ ...execSpec.exec[0], checkout }] } });
      expect(refused.status, details).toBe(400);
      expect(refused.json, details).toMatchObject({ code, details });
    }
    const artifacts = await server.call('POST', '/api/db/config_scrapers', admin, { name: 'admin-exec-artifacts', spec: { exec: [{ ...execSpec.exec[0], artifacts: [{ path: '/tmp/x' }] }] } });
    expect(artifacts.json).toMatchObject({ code: 'OD_SCRAPER_FIELD', details: 'spec.exec[0].artifacts' });
  });

  // Scripts run only as the sandbox user, which a server needs root to switch to (ADR 0042); CI runs as root.
  describe.runIf(process.getuid?.() === 0)('running', () => {
    it('stores the configs of the JSON the script prints, run as an unprivileged user in an empty private folder with its env, whose values are scrubbed', async () => {
      const id = await saveAsAdmin('exec-json', {
        exec: [
          {
            type: 'Host::Process',
            id: '$.id',
            name: '$.id',
            script: 'printf \'[{"id": "me", "uid": "%s", "cwd_files": %s, "greeting": "%s", "greeting_length": %s}]\' "$(id -u)" "$(ls -A | wc -l)" "$GREETING" "${#GREETING}"',
            env: [{ name: 'GREETING', value: 'hello-there' }],
          },
        ],
      });
      const outcome = await runById(id);
      expect(outcome.status, JSON.stringify(outcome.errors)).toBe('SUCCESS');
      const row = await server.pool.query<{ config: { uid: string; cwd_files: number; greeting: string; greeting_length: number } }>(
        'select config from config_items where scraper_id = $1',
        [id],
      );
      const config = row.rows[0]?.config;
      expect(config?.uid).not.toBe('0');
      expect(config?.cwd_files).toBe(0);
      expect(config?.greeting_length).toBe('hello-there'.length);
      expect(config?.greeting).toBe('[REDACTED]');
    });

    it('clones the checkout as the sandbox user and starts the script in it, and fails the run naming a branch that is not there', async () => {
      const repository = sandboxRepository({ 'services.json': JSON.stringify([{ id: 'svc-a', team: 'payments' }, { id: 'svc-b', team: 'search' }]) });
      try {
        const id = await saveAsAdmin('exec-checkout', { exec: [{ type: 'Service', id: '$.id', name: '$.id', checkout: { url: repository.url, branch: 'main' }, script: 'cat services.json' }] });
        const outcome = await runById(id);
        expect(outcome.status, JSON.stringify(outcome.errors)).toBe('SUCCESS');
        const names = await server.pool.query<{ name: string }>('select name from config_items where scraper_id = $1 order by name', [id]);
        expect(names.rows.map((row) => row.name)).toEqual(['svc-a', 'svc-b']);

        const missing = await saveAsAdmin('exec-checkout-missing', { exec: [{ type: 'Service', id: '$.id', checkout: { url: repository.url, branch: 'release-9' }, script: 'cat services.json' }] });
        const failed = await runById(missing);
        expect(failed.status).toBe('FAILED');
        expect(failed.errors.map((error) => error.message).join('\n')).toContain(`checkout of ${repository.url} (release-9) failed`);
      } finally {
        repository.dispose();
      }
    });

    it("hands connections' credentials to the script, scrubbed from the configs, and refuses inline credentials and other kinds at save", async () => {
      const key = server.running.context.config.secretKey;
      const secret = 'aws-secret-for-exec-scraper-77c1';
      await createConnection(server.pool, key, { name: 'scrape-aws', namespace: 'aws', type: 'aws', username: 'AKIASCRAPEEXAMPLE', password: secret, properties: { region: 'us-west-2' } }, null);
      const id = await saveAsAdmin('exec-aws-connection', {
        exec: [
          {
            type: 'AWS::Region',
            id: '$.region',
            name: '$.region',
            script: 'printf \'{"region":"%s","key":"%s"}\' "$AWS_REGION" "$AWS_SECRET_ACCESS_KEY"',
            connections: { aws: { connection: 'connection://aws/scrape-aws' } },
          },
        ],
      });
      const outcome = await runById(id);
      expect(outcome.status, JSON.stringify(outcome.errors)).toBe('SUCCESS');
      const items = await server.pool.query<{ name: string; config: string }>('select name, config::text as config from config_items where scraper_id = $1', [id]);
      expect(items.rows.map((row) => row.name)).toEqual(['us-west-2']);
      expect(items.rows[0]?.config).not.toContain(secret);
      const refusals: Array<[Record<string, unknown>, string, string]> = [
        [{ aws: { accessKey: 'AKIA' } }, 'OD_SCRAPER_FIELD', 'spec.exec[0].connections.aws.accessKey'],
        [{ gcp: { connection: 'connection://gcp/x' } }, 'OD_SCRAPER_FIELD', 'spec.exec[0].connections.gcp'],
      ];
      for (const [connections, code, details] of refusals) {
        const refused = await server.call('POST', '/api/db/config_scrapers', admin, { name: 'exec-aws-refused', spec: { exec: [{ type: 'X', id: '$.id', script: 'true', connections }] } });
        expect(refused.status, refused.text).toBe(400);
        expect(refused.json, refused.text).toMatchObject({ code });
        expect(String(refused.json.details)).toContain(details);
      }
    });

    it('saves a scraper whose connection does not exist yet, and fails its run naming that connection until it is created', async () => {
      const id = await saveAsAdmin('exec-aws-later', {
        exec: [{ type: 'X', id: '$.region', script: 'printf \'{"region":"%s"}\' "$AWS_REGION"', connections: { aws: { connection: 'connection://aws/created-later' } } }],
      });
      const missing = await runById(id);
      expect(missing.status).toBe('FAILED');
      expect(JSON.stringify(missing.errors)).toContain("Connection 'connection://aws/created-later' not found");
      await createConnection(server.pool, server.running.context.config.secretKey, { name: 'created-later', namespace: 'aws', type: 'aws', username: 'AKIALATER', password: 'later-secret', properties: { region: 'eu-west-1' } }, null);
      const found = await runById(id);
      expect(found.status, JSON.stringify(found.errors)).toBe('SUCCESS');
    });

    it('reads YAML output, and cuts it with items', async () => {
      const id = await saveAsAdmin('exec-yaml', {
        exec: [{ type: 'Kubernetes::Cluster', id: '$.name', name: '$.name', items: '.clusters', script: 'printf "clusters:\\n  - name: prod\\n  - name: staging\\n"' }],
      });
      expect((await runById(id)).status).toBe('SUCCESS');
      const names = await server.pool.query<{ name: string }>('select name from config_items where scraper_id = $1 order by name', [id]);
      expect(names.rows.map((row) => row.name)).toEqual(['prod', 'staging']);
    });

    it('fails the run with the exit code and error output of a failing script, storing nothing', async () => {
      const id = await saveAsAdmin('exec-fails', { exec: [{ type: 'T', id: '$.id', script: 'echo "no credentials" >&2; exit 4' }] });
      const outcome = await runById(id);
      expect(outcome.status).toBe('FAILED');
      expect(outcome.errors.map((error) => error.message).join('\n')).toContain('exited with code 4: no credentials');
    });

    it('is scheduled like the other kinds this server runs', async () => {
      const id = await saveAsAdmin('exec-scheduled', execSpec);
      await syncScrapeSchedule(server.pool);
      const scheduled = await server.pool.query('select 1 from config_scrapers_schedule where scraper_id = $1', [id]);
      expect(scheduled.rowCount).toBe(1);
      expect((await runById(id)).status).toBe('SUCCESS');
      const names = await server.pool.query<{ name: string }>('select name from config_items where scraper_id = $1 order by name', [id]);
      expect(names.rows.map((row) => row.name)).toEqual(['db-1', 'web-1']);
    });
  });
});
