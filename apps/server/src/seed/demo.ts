import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { ROLES, type Role } from '@opsdeck/shared';
import { hashPassword } from '../auth/shared/passwords';
import { LOCAL_DEMO_AGENT_FILE, seedAgentsDemo, seedLocalDemoAgent } from './agents';
import { seedCatalogDemo } from './catalog';
import { seedEventsDemo } from './events';
import { seedHealthDemo } from './health';
import { seedIdentityFactorsDemo } from './identity-factors';
import { seedIncidentsDemo } from './incidents';
import { seedJobsDemo } from './jobs';
import { seedLogsDemo } from './logs';
import { seedNotificationsDemo } from './notifications';
import { seedPlaybooksDemo } from './playbooks';
import { DEMO_SCRAPER_NAME, seedScrapersDemo } from './scrapers';
import { rebuildTopologyDemo, seedTopologyDemo } from './topology';

export const DEMO_PASSWORD = 'opsdeck-demo';

export interface DemoLogin {
  role: Role;
  email: string;
  name: string;
  /** The two-factor demo person's TOTP key, for an authenticator app. */
  totpSecret?: string;
}

export const DEMO_LOGINS: DemoLogin[] = ROLES.map((role) => ({
  role,
  email: `${role}@opsdeck.local`,
  name: { admin: 'Ada Admin', editor: 'Eddie Editor', commander: 'Cora Commander', responder: 'Rey Responder', viewer: 'Vic Viewer' }[role],
}));

const DEMO_TEAMS = [
  { name: 'Platform', icon: 'kubernetes', members: ['admin', 'editor', 'commander'] },
  { name: 'Database Reliability', icon: 'postgres', members: ['commander', 'responder'] },
  { name: 'Edge', icon: 'nginx', members: ['responder', 'viewer'] },
] as const;

const DEMO_FLAGS = [
  { name: 'incidents.disable', value: 'false', description: 'Set to true to hide the incident area' },
  { name: 'logs.disable', value: 'false', description: 'Set to true to hide the logs area' },
  { name: 'catalog.hide_deleted_after', value: '7d', description: 'How long deleted catalog items stay listed' },
] as const;

export interface DemoOptions {
  secretKey: Buffer;
  /** Where this server will answer: demo health checks probe the console itself. */
  serverUrl: string;
  /** Where the demo file scraper's sample manifests are copied (<dataDir>/scrape/demo); without it there is none. */
  dataDir?: string;
}

/** Seeds the demo once, on an empty database; returns null when people already exist. */
export async function seedDemo(pool: pg.Pool, options: DemoOptions): Promise<{ password: string; logins: DemoLogin[] } | null> {
  const people = await pool.query<{ n: number }>('select count(*)::int as n from people');
  if ((people.rows[0]?.n ?? 0) > 0) return null;
  // First, while the demo's checks do not exist yet: the check scheduler would run them during the scrape, before the
  // server listens, and record the console's own probes as failed.
  if (options.dataDir !== undefined) await seedScrapersDemo(pool, { dataDir: options.dataDir, secretKey: options.secretKey, createdBy: null });
  const client = await pool.connect();
  try {
    await client.query('begin');
    const existing = await client.query<{ n: number }>('select count(*)::int as n from people');
    if ((existing.rows[0]?.n ?? 0) > 0) {
      await client.query('rollback');
      return null;
    }
    const hashed = await hashPassword(DEMO_PASSWORD);
    const ids = new Map<Role, string>();
    for (const login of DEMO_LOGINS) {
      const person = await client.query<{ id: string }>(
        'insert into people (name, email) values ($1, $2) returning id',
        [login.name, login.email],
      );
      const id = person.rows[0]?.id;
      if (id === undefined) throw new Error('person insert returned no id');
      ids.set(login.role, id);
      await client.query('insert into identities (id, traits) values ($1, $2)', [
        id,
        JSON.stringify({ email: login.email, name: { first: login.name.split(' ')[0], last: login.name.split(' ')[1] } }),
      ]);
      await client.query(
        `insert into identity_credentials (identity_id, type, identifiers, config) values ($1, 'password', $2, $3)`,
        [id, [login.email], JSON.stringify({ hashed_password: hashed })],
      );
      await client.query('insert into person_roles (person_id, role) values ($1, $2)', [id, login.role]);
    }
    const twoFactor = await seedIdentityFactorsDemo(client, { secretKey: options.secretKey, hashedPassword: hashed });
    const admin = ids.get('admin');
    const teamIds: string[] = [];
    for (const team of DEMO_TEAMS) {
      const row = await client.query<{ id: string }>(
        'insert into teams (name, icon, created_by) values ($1, $2, $3) returning id',
        [team.name, team.icon, admin],
      );
      if (row.rows[0] !== undefined) teamIds.push(row.rows[0].id);
      for (const member of team.members) {
        await client.query('insert into team_members (team_id, person_id) values ($1, $2)', [row.rows[0]?.id, ids.get(member)]);
      }
    }
    for (const flag of DEMO_FLAGS) {
      await client.query(
        'insert into properties (name, value, description, created_by) values ($1, $2, $3, $4) on conflict (name) do nothing',
        [flag.name, flag.value, flag.description, admin],
      );
    }
    if (admin === undefined) throw new Error('the demo admin was not created');
    await seedHealthDemo(client, { adminId: admin, serverUrl: options.serverUrl });
    // The topologies come before the incidents, whose evidence points at their components; the catalog comes after
    // the incidents, which it links to, and the topologies are built again to find its items.
    await seedTopologyDemo(client, admin);
    await seedIncidentsDemo(client, { peopleByRole: Object.fromEntries(ids), teamIds });
    await seedCatalogDemo(client);
    await rebuildTopologyDemo(client);
    await seedPlaybooksDemo(client, { peopleByRole: Object.fromEntries(ids), serverUrl: options.serverUrl, secretKey: options.secretKey });
    await seedAgentsDemo(client, { adminId: admin });
    const localAgent = await seedLocalDemoAgent(client, { adminId: admin, serverUrl: options.serverUrl });
    await seedJobsDemo(client);
    await seedEventsDemo(client);
    await seedNotificationsDemo(client, { adminId: admin, teamId: teamIds[0] ?? '', serverUrl: options.serverUrl });
    await seedLogsDemo(client, { adminId: admin, dataDir: options.dataDir });
    await client.query('update config_scrapers set created_by = $1 where name = $2 and created_by is null', [admin, DEMO_SCRAPER_NAME]);
    await client.query('commit');
    // After the commit, so that no file names an agent a rolled-back seed never made. Readable by the console's user
    // only, like the rest of the data folder (the database, the secret key).
    if (options.dataDir !== undefined) writeFileSync(path.join(options.dataDir, LOCAL_DEMO_AGENT_FILE), `${JSON.stringify(localAgent, null, 2)}\n`, { mode: 0o600 });
    return { password: DEMO_PASSWORD, logins: [...DEMO_LOGINS, twoFactor] };
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
