import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hashPassword } from '../auth/shared/passwords';
import { openDatabase } from '../db/database';
import { migrate } from '../db/migrate';
import { DEMO_PASSWORD } from '../seed/demo';
import { ensureDemoAdmin, startBrowserBenchServer } from './catalog-browser';
import { compiledServerEntry } from './startup';

/** People on the bench server: a large organisation's directory. */
const PEOPLE = 10_000;
const SEQUENTIAL_SIGN_INS = 40;
const CONCURRENT_SIGN_INS = 40;
const CONCURRENCY = 4;
const WHOAMI_CALLS = 500;
const LIST_CALLS = 50;
const SIGN_IN_GOAL_P95_MS = 500;
const WHOAMI_GOAL_P95_MS = 20;
const LIST_GOAL_P95_MS = 300;

interface Latency {
  p50Ms: number;
  p95Ms: number;
}

export interface IdentityBenchFigures {
  people: number;
  signIn: Latency;
  signInsPerSecond: number;
  whoami: Latency;
  usersList: Latency & { rows: number };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

function latency(samples: number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95) };
}

function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0] ?? '')
    .filter((pair) => pair !== '')
    .join('; ');
}

interface LoginFlow {
  ui: { action: string; nodes: { attributes: { name?: string; value?: unknown } }[] };
}

/** The whole browser sign-in as the web performs it: a new flow, then its submit; answers the session cookie. */
async function signIn(url: string, email: string): Promise<string> {
  const created = await fetch(`${url}/api/auth/self-service/login/browser`, { headers: { accept: 'application/json' } });
  if (created.status !== 200) throw new Error(`login flow: ${created.status} ${await created.text()}`);
  const csrfCookie = cookiesOf(created);
  const flow = (await created.json()) as LoginFlow;
  const csrf = flow.ui.nodes.find((node) => node.attributes.name === 'csrf_token')?.attributes.value;
  const submitted = await fetch(`${url}${flow.ui.action}`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json', cookie: csrfCookie, origin: url },
    body: JSON.stringify({ method: 'password', identifier: email, password: DEMO_PASSWORD, csrf_token: csrf }),
  });
  if (submitted.status !== 200) throw new Error(`sign-in of ${email}: ${submitted.status} ${await submitted.text()}`);
  await submitted.arrayBuffer();
  return cookiesOf(submitted);
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/**
 * Sign-in (flow and Argon2id verification), whoami and the Users screen's list, against the compiled server with
 * 10,000 people who can all sign in. Null when the server is not built.
 */
export async function benchIdentity(): Promise<IdentityBenchFigures | { skipped: string }> {
  if (!existsSync(compiledServerEntry())) return { skipped: 'apps/server/dist/main.js is missing: run `npm run build` first' };
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-bench-identity-'));
  try {
    const db = await openDatabase({ dataDir, statementTimeoutMs: 0 });
    try {
      await migrate(db.pool);
      await ensureDemoAdmin(db.pool);
      // One hash for everybody: the verification costs the same whoever signs in, and hashing 10,000 times is not
      // what this measures.
      const hashed = await hashPassword(DEMO_PASSWORD);
      await db.pool.query(
        `with made as (
           insert into people (name, email)
           select 'Bench Person ' || g, 'person' || g || '@bench.test' from generate_series(1, $1::int) g
           returning id, email
         ), identity as (
           insert into identities (id, traits)
           select id, jsonb_build_object('email', email, 'name', jsonb_build_object('first', 'Bench', 'last', 'Person')) from made
           returning id
         ), credential as (
           insert into identity_credentials (identity_id, type, identifiers, config)
           select id, 'password', array[email], jsonb_build_object('hashed_password', $2::text) from made
         )
         insert into person_roles (person_id, role) select id, 'viewer' from made`,
        [PEOPLE, hashed],
      );
    } finally {
      await db.close();
    }

    const server = await startBrowserBenchServer({ dataDir });
    try {
      const sequential: number[] = [];
      for (let n = 1; n <= SEQUENTIAL_SIGN_INS; n += 1) sequential.push(await timed(() => signIn(server.url, `person${n}@bench.test`)));

      let next = SEQUENTIAL_SIGN_INS + 1;
      const last = SEQUENTIAL_SIGN_INS + CONCURRENT_SIGN_INS;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next <= last) {
            const n = next;
            next += 1;
            await signIn(server.url, `person${n}@bench.test`);
          }
        }),
      );
      const signInsPerSecond = CONCURRENT_SIGN_INS / ((performance.now() - started) / 1000);

      const cookie = await signIn(server.url, 'person1@bench.test');
      const whoami: number[] = [];
      for (let n = 0; n < WHOAMI_CALLS; n += 1) {
        whoami.push(
          await timed(async () => {
            const response = await fetch(`${server.url}/api/auth/sessions/whoami`, { headers: { accept: 'application/json', cookie } });
            if (response.status !== 200) throw new Error(`whoami: ${response.status}`);
            await response.arrayBuffer();
          }),
        );
      }

      const admin = await signIn(server.url, 'admin@opsdeck.local');
      const list: number[] = [];
      let rows = 0;
      for (let n = 0; n < LIST_CALLS; n += 1) {
        list.push(
          await timed(async () => {
            const response = await fetch(
              `${server.url}/api/db/identities_summary?select=id,name,email,avatar,roles,state,created_at,updated_at&order=name.asc&limit=50&offset=${(n * 50) % PEOPLE}`,
              { headers: { accept: 'application/json', cookie: admin, prefer: 'count=exact' } },
            );
            if (response.status !== 200 && response.status !== 206) throw new Error(`users list: ${response.status} ${await response.text()}`);
            rows = ((await response.json()) as unknown[]).length;
          }),
        );
      }
      return {
        people: PEOPLE,
        signIn: latency(sequential),
        signInsPerSecond,
        whoami: latency(whoami),
        usersList: { ...latency(list), rows },
      };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function reportIdentity(heading: (title: string) => void): Promise<void> {
  heading('Identity');
  const figures = await benchIdentity();
  if ('skipped' in figures) {
    console.log(`Skipped: ${figures.skipped}`);
    return;
  }
  const line = (label: string, value: Latency, goal: number): string =>
    `${label.padEnd(58)} p50 ${value.p50Ms.toFixed(1)} ms, p95 ${value.p95Ms.toFixed(1)} ms (goal p95 < ${goal} ms)`;
  console.log(`Compiled server, embedded database, ${figures.people.toLocaleString('en')} people who can sign in:`);
  console.log(line(`sign-in (new flow + password submit), ${SEQUENTIAL_SIGN_INS} in a row`, figures.signIn, SIGN_IN_GOAL_P95_MS));
  console.log(`${`sign-ins per second, ${CONCURRENCY} browsers at once`.padEnd(58)} ${figures.signInsPerSecond.toFixed(1)}/s (Argon2id bound)`);
  console.log(line(`whoami, ${WHOAMI_CALLS} calls`, figures.whoami, WHOAMI_GOAL_P95_MS));
  console.log(line(`Users screen page (50 of identities_summary, exact count)`, figures.usersList, LIST_GOAL_P95_MS));
}
