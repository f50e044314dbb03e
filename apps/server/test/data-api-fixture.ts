import { afterAll, beforeAll } from 'vitest';
import { PostgrestClient } from '@supabase/postgrest-js';
import type { Role } from '@opsdeck/shared';
import { schemaCacheFor } from '../src/data-api/data-api-plugin';
import { startTestServer, type TestServer } from './harness';

/**
 * A small schema of its own so the data API tests do not depend on the domain tables: clients own projects, projects
 * have tasks, and users join projects through a junction table.
 */
const FIXTURE_SQL = `
  create table dx_clients (id int primary key, name text not null);
  create table dx_users (id int primary key, name text not null);
  create table dx_projects (
    id int primary key,
    name text not null,
    client_id int references dx_clients (id),
    tags text[] not null default '{}',
    meta jsonb not null default '{}',
    budget numeric,
    created_on date not null default '2024-01-01',
    api_token_hash text
  );
  create table dx_tasks (
    id serial primary key,
    project_id int not null constraint dx_tasks_project_fk references dx_projects (id) on delete cascade,
    title text not null,
    done boolean not null default false,
    priority int
  );
  create table dx_project_users (
    project_id int not null references dx_projects (id) on delete cascade,
    user_id int not null references dx_users (id) on delete cascade,
    primary key (project_id, user_id)
  );
  create view dx_projects_summary as select p.id, p.name, count(t.id)::int as tasks from dx_projects p left join dx_tasks t on t.project_id = p.id group by p.id;
  create function dx_add(a int, b int) returns int language sql immutable as 'select a + b';
  create function dx_projects_of(client int) returns setof dx_projects language sql stable as 'select * from dx_projects where client_id = client order by id';
  create function dx_rename(project int, new_name text) returns void language sql volatile as 'update dx_projects set name = new_name where id = project';
  create function dx_fail() returns int language plpgsql as $$ begin raise exception 'refused on purpose' using detail = 'by the test'; end $$;
  insert into dx_clients values (1, 'Acme'), (2, 'Globex'), (3, 'Initech');
  insert into dx_users values (1, 'Ann'), (2, 'Bob'), (3, 'Cid');
  insert into dx_projects (id, name, client_id, tags, meta, budget, api_token_hash) values
    (1, 'Apollo', 1, '{space,moon}', '{"stage":{"name":"done"},"size":3}', 100.5, 'secret-1'),
    (2, 'Gemini', 1, '{space}', '{"stage":{"name":"active"},"size":2}', null, 'secret-2'),
    (3, 'Mercury', 2, '{space,orbit}', '{"stage":{"name":"active"},"size":1}', 50, 'secret-3'),
    (4, 'Skylab', null, '{}', '{}', null, 'secret-4');
  insert into dx_tasks (project_id, title, done, priority) values
    (1, 'Launch', true, 1), (1, 'Land', true, 2), (1, 'Return', false, null),
    (2, 'Dock', false, 1), (3, 'Orbit', true, 3);
  insert into dx_project_users values (1, 1), (1, 2), (3, 3);
`;

export interface DataApiFixture {
  server: TestServer;
  /** A postgrest-js client signed in as the demo user of that role. */
  client(role: Role): Promise<PostgrestClient>;
  /** Raw fetch against /api/db with a role's session cookie. */
  request(role: Role | null, path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export async function startDataApiFixture(): Promise<DataApiFixture> {
  const server = await startTestServer();
  await server.pool.query(FIXTURE_SQL);
  await schemaCacheFor(server.running.context.db)?.reload();
  const cookies = new Map<Role, string>();
  const cookieFor = async (role: Role): Promise<string> => {
    let cookie = cookies.get(role);
    if (cookie === undefined) {
      cookie = await server.cookieFor(role);
      cookies.set(role, cookie);
    }
    return cookie;
  };
  return {
    server,
    async client(role) {
      return new PostgrestClient(`${server.url}/api/db`, { headers: { cookie: await cookieFor(role) }, fetch });
    },
    async request(role, path, init = {}) {
      const headers = new Headers(init.headers);
      if (role !== null) headers.set('cookie', await cookieFor(role));
      // As the web client does on every call: cookie-authenticated writes without a JSON body need it (CSRF check).
      if (role !== null && !headers.has('x-requested-with')) headers.set('x-requested-with', 'XMLHttpRequest');
      return fetch(`${server.url}/api/db${path}`, { ...init, headers });
    },
    close: () => server.close(),
  };
}

/** What a data-API test file works with: the fixture, and clients signed in as its main role and as an editor. */
export class DataApiSuite {
  private started: { fx: DataApiFixture; db: PostgrestClient; editor: PostgrestClient } | null = null;

  start(started: { fx: DataApiFixture; db: PostgrestClient; editor: PostgrestClient }): void {
    this.started = started;
  }

  private get ready() {
    if (this.started === null) throw new Error('The data API fixture is used before beforeAll started it');
    return this.started;
  }

  get fx(): DataApiFixture {
    return this.ready.fx;
  }

  get db(): PostgrestClient {
    return this.ready.db;
  }

  get editor(): PostgrestClient {
    return this.ready.editor;
  }
}

/**
 * Starts one fixture server for the calling describe block and closes it after; `role` is whom `suite.db` signs in as.
 * `prepare` runs once after the start, for rows a file needs beyond the shared fixture.
 */
export function useDataApiSuite(role: Role, prepare?: (fx: DataApiFixture) => Promise<void>): DataApiSuite {
  const suite = new DataApiSuite();
  let fx: DataApiFixture | null = null;
  beforeAll(async () => {
    fx = await startDataApiFixture();
    suite.start({ fx, db: await fx.client(role), editor: await fx.client('editor') });
    await prepare?.(fx);
  });
  afterAll(async () => {
    await fx?.close();
  });
  return suite;
}
