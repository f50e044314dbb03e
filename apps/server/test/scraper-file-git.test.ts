import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScrape } from '../src/modules/scrapers';
import { startTestServer, type TestServer } from './harness';
import { startGitHttpServer, type GitHttpServer } from './fixtures/git-http-server';

const MANIFEST = 'apiVersion: canaries.flanksource.com/v1\nkind: Canary\nmetadata:\n  name: http-pass\nspec:\n  http:\n    - url: https://example.test\n';

/** config-db's file-git.yaml: a file source reading paths of one commit of a public git repository. */
describe('file scrapers reading a git repository (url)', () => {
  let server: TestServer;
  let editor: string;
  let repository: GitHttpServer;

  beforeAll(async () => {
    server = await startTestServer();
    editor = await server.cookieFor('editor');
    repository = await startGitHttpServer({
      'fixtures/minimal/http_pass.yaml': MANIFEST,
      'fixtures/minimal/other.yaml': 'kind: Other\nmetadata:\n  name: other\n',
      'README.md': 'not yaml: [',
    });
  });
  afterAll(async () => {
    await repository.close();
    await server.close();
  });

  async function save(name: string, entry: Record<string, unknown>): Promise<{ status: number; json: Record<string, unknown> }> {
    const reply = await server.call('POST', '/api/db/config_scrapers', editor, { name, spec: { file: [entry] } }, { prefer: 'return=representation' });
    return { status: reply.status, json: (Array.isArray(reply.json) ? reply.json[0] : reply.json) as Record<string, unknown> };
  }

  async function run(id: string) {
    const row = await server.pool.query<{ id: string; name: string; spec: unknown; agent_id: string | null }>('select id, name, spec, agent_id from config_scrapers where id = $1', [id]);
    const scraper = row.rows[0];
    if (scraper === undefined) throw new Error('no scraper');
    return runScrape({ pool: server.pool, secretKey: server.running.context.config.secretKey, roots: [], ownDatabaseUrl: null }, scraper);
  }

  it('fetches the commit a ref names and scrapes the paths below the repository root, naming the repository as the source', async () => {
    const saved = await save('git-commit', { type: '$.kind', id: '$.metadata.name', url: `${repository.url}?ref=${repository.commit}`, paths: ['fixtures/minimal/http_pass.yaml'] });
    expect(saved.status, JSON.stringify(saved.json)).toBe(201);
    const outcome = await run(String(saved.json.id));
    expect(outcome.status, JSON.stringify(outcome.errors)).toBe('SUCCESS');
    const items = await server.pool.query<{ name: string; type: string; source: string }>('select name, type, source from config_items where scraper_id = $1', [saved.json.id]);
    expect(items.rows).toEqual([{ name: 'http-pass', type: 'Canary', source: `${repository.url}?ref=${repository.commit}#fixtures/minimal/http_pass.yaml` }]);
  });

  it("reads globs at the remote's HEAD when no ref is given", async () => {
    const saved = await save('git-head', { type: '$.kind', id: '$.metadata.name', url: repository.url, paths: ['fixtures/**/*.yaml'] });
    expect(saved.status).toBe(201);
    const outcome = await run(String(saved.json.id));
    expect(outcome.status, JSON.stringify(outcome.errors)).toBe('SUCCESS');
    const items = await server.pool.query<{ name: string }>('select name from config_items where scraper_id = $1 order by name', [saved.json.id]);
    expect(items.rows.map((row) => row.name)).toEqual(['http-pass', 'other']);
  });

  it('fails the run naming the repository and ref when the ref does not exist', async () => {
    const saved = await save('git-missing', { type: '$.kind', id: '$.metadata.name', url: `${repository.url}?ref=no-such-branch`, paths: ['*.yaml'] });
    const outcome = await run(String(saved.json.id));
    expect(outcome.status).toBe('FAILED');
    expect(JSON.stringify(outcome.errors)).toContain(`fetching ${repository.url} at no-such-branch failed`);
  });

  it('refuses at save a local, ssh or credentialed repository and paths that leave the repository, and fetches nothing', async () => {
    const before = repository.requests.length;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ url: 'file:///etc', paths: ['passwd'] }, 'spec.file[0].url'],
      [{ url: '/srv/repo', paths: ['a.yaml'] }, 'spec.file[0].url'],
      [{ url: 'git@github.com:org/repo.git', paths: ['a.yaml'] }, 'spec.file[0].url'],
      [{ url: `${repository.url.replace('http://', 'http://user:pw@')}`, paths: ['a.yaml'] }, 'spec.file[0].url'],
      [{ url: `${repository.url}?sshkey=abc`, paths: ['a.yaml'] }, 'spec.file[0].url'],
      [{ url: repository.url, paths: ['/etc/passwd'] }, 'spec.file[0].paths[0]'],
      [{ url: repository.url, paths: ['../../etc/passwd'] }, 'spec.file[0].paths[0]'],
    ];
    for (const [entry, details] of cases) {
      const refused = await save('git-refused', { type: '$.kind', id: '$.metadata.name', ...entry });
      expect(refused.status, JSON.stringify(entry)).toBe(400);
      expect(refused.json, JSON.stringify(entry)).toMatchObject({ code: 'OD_SCRAPER_SPEC', details });
    }
    expect(repository.requests.length).toBe(before);
  });
});
