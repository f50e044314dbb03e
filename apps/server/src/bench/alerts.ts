import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { createApp } from '../app';
import { hashToken, newSessionToken } from '../auth/shared/session-token';
import { openDatabase, type Database } from '../db/database';
import { migrate } from '../db/migrate';
import { INCIDENT_RULE_EVENTS, INCIDENT_RULES_CONSUMER, incidentRuleHandlers } from '../modules/incident-rules';
import { loadConfig } from '../platform/config';
import { EventBus } from '../platform/event-bus';
import { EventQueueConsumer } from '../platform/event-queue';

const BATCHES = 20;
const ALERTS_PER_BATCH = 1000;
const ENGINE_ALERTS = 1000;
const ENGINE_GROUPS = 10;
const GOAL_PER_SECOND = 1000;

interface Throughput {
  alerts: number;
  seconds: number;
  perSecond: number;
}

export interface AlertsBenchFigures {
  database: string;
  newAlerts: Throughput;
  repeats: Throughput;
  engine: { events: number; seconds: number; perSecond: number; incidents: number };
}

function payload(run: string, start: number, status: 'firing' | 'resolved'): string {
  const alerts = Array.from({ length: ALERTS_PER_BATCH }, (_, i) => {
    const n = start + i;
    const labels = { alertname: `BenchAlert${n % 50}`, severity: n % 10 === 0 ? 'critical' : 'warning', instance: `node-${n}:9100`, job: 'node', bench: run };
    return {
      status,
      labels,
      annotations: { summary: `Bench alert ${n}` },
      startsAt: '2026-01-01T00:00:00Z',
      endsAt: '0001-01-01T00:00:00Z',
      generatorURL: 'http://prometheus.bench:9090/graph',
      fingerprint: `${run}-${n}`,
    };
  });
  return JSON.stringify({ version: '4', groupKey: '{}:{}', status, receiver: 'bench', groupLabels: {}, commonLabels: {}, commonAnnotations: {}, externalURL: '', alerts });
}

async function responderSession(pool: pg.Pool): Promise<string> {
  const email = 'bench-alerts@opsdeck.local';
  let id = (await pool.query<{ id: string }>(`select id from people where email = $1`, [email])).rows[0]?.id;
  if (id === undefined) {
    id = (await pool.query<{ id: string }>(`insert into people (name, email) values ('Bench Alerts', $1) returning id`, [email])).rows[0]?.id;
    if (id === undefined) throw new Error('could not create the bench user');
    await pool.query(`insert into identities (id, traits) values ($1, '{}')`, [id]);
    await pool.query(`insert into person_roles (person_id, role) values ($1, 'responder')`, [id]);
  }
  const token = newSessionToken();
  await pool.query(`insert into sessions (token_hash, identity_id, expires_at) values ($1, $2, now() + interval '2 hours')`, [hashToken(token), id]);
  return token;
}

/**
 * Alerts stored per second through POST /api/alerts/alertmanager on an in-process server (api role), batches of
 * 1,000 sent one after another as Alertmanager sends its groups: first new fingerprints (an insert and an
 * alert.firing event each, the rules engine subscribed), then the same alerts again (only counted). Then the rules
 * engine's own pace: 1,000 firing-alert events in 10 groups handled by one consumer.
 */
async function benchOn(db: Database, label: string, dataDir: string): Promise<AlertsBenchFigures> {
  const pool = db.pool;
  const run = `bench${randomBytes(4).toString('hex')}`;
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', OPSDECK_SEED_DEMO: 'false', OPSDECK_ROLE: 'api' }, { dataDir, port: 0, host: '127.0.0.1' });
  const running = await createApp(config, { db, logger: false });
  let ruleId: string | null = null;
  try {
    const url = await running.app.listen({ port: 0, host: '127.0.0.1' });
    const token = await responderSession(pool);
    await pool.query(`insert into event_queue_subscriptions (consumer, name) select $1, unnest($2::text[]) on conflict do nothing`, [INCIDENT_RULES_CONSUMER, [...INCIDENT_RULE_EVENTS]]);
    const send = async (start: number): Promise<void> => {
      const response = await fetch(`${url}/api/alerts/alertmanager`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: payload(run, start, 'firing'),
      });
      const text = await response.text();
      if (response.status !== 202) throw new Error(`ingestion answered ${response.status}: ${text.slice(0, 300)}`);
    };
    const measure = async (): Promise<Throughput> => {
      const started = performance.now();
      for (let i = 0; i < BATCHES; i += 1) await send(i * ALERTS_PER_BATCH);
      const seconds = (performance.now() - started) / 1000;
      return { alerts: BATCHES * ALERTS_PER_BATCH, seconds, perSecond: (BATCHES * ALERTS_PER_BATCH) / seconds };
    };
    const newAlerts = await measure();
    const repeats = await measure();
    // The ingestion's events are not the engine's test: it gets a set of its own below.
    await pool.query(`delete from event_queue where consumer = $1 and properties ->> 'fingerprint' like $2`, [INCIDENT_RULES_CONSUMER, `${run}-%`]);

    ruleId =
      (
        await pool.query<{ id: string }>(`insert into incident_rules (name, spec) values ($1, $2) returning id`, [
          `bench ${run}`,
          JSON.stringify({
            sources: ['alert'],
            filter: `alert.labels.bench == '${run}e'`,
            incident: { title: '{{ alert.name }} (bench)', type: 'availability', severity: 'low' },
            groupBy: ['alert.labels.alertname'],
          }),
        ])
      ).rows[0]?.id ?? null;
    await pool.query(
      `insert into alerts (fingerprint, source, name, status, severity, labels)
       select $1 || g, 'webhook', 'BenchEngine' || (g % $3), 'firing', 'warning',
              jsonb_build_object('alertname', 'BenchEngine' || (g % $3), 'bench', $2::text)
         from generate_series(1, $4) g`,
      [`${run}e-`, `${run}e`, ENGINE_GROUPS, ENGINE_ALERTS],
    );
    await pool.query(
      `insert into event_queue (name, properties) select 'alert.firing', jsonb_build_object('id', id, 'alert_id', id) from alerts where fingerprint like $1`,
      [`${run}e-%`],
    );
    const consumer = new EventQueueConsumer({ pool, bus: new EventBus(), consumer: INCIDENT_RULES_CONSUMER, handlers: incidentRuleHandlers({ pool }), claimBatch: 50 });
    const started = performance.now();
    const events = await consumer.drain();
    const seconds = (performance.now() - started) / 1000;
    const incidents = await pool.query<{ count: number }>(`select count(*)::integer as count from incident_rule_groups where rule_id = $1`, [ruleId]);
    return { database: label, newAlerts, repeats, engine: { events, seconds, perSecond: events / seconds, incidents: incidents.rows[0]?.count ?? 0 } };
  } finally {
    // What the bench wrote goes again, so a PostgreSQL bench database keeps only what it had.
    if (ruleId !== null) {
      await pool.query(`delete from incidents where id in (select incident_id from incident_rule_groups where rule_id = $1)`, [ruleId]);
      await pool.query(`delete from incident_rules where id = $1`, [ruleId]);
    }
    await pool.query(`delete from alerts where fingerprint like $1`, [`${run}%`]);
    await pool.query(`delete from event_queue where consumer = $1 and properties ->> 'fingerprint' like $2`, [INCIDENT_RULES_CONSUMER, `${run}%`]);
    await running.close();
  }
}

function line(label: string, figure: Throughput): string {
  return (
    `${label.padEnd(44)} ${figure.perSecond.toFixed(0)} alerts/s: ${figure.alerts.toLocaleString('en')} in ${figure.seconds.toFixed(1)} s, ` +
    `batches of ${ALERTS_PER_BATCH}, one at a time   (goal ≥ ${GOAL_PER_SECOND}/s: ${figure.perSecond >= GOAL_PER_SECOND ? 'met' : 'NOT met'})`
  );
}

function print(figures: AlertsBenchFigures): void {
  console.log(`${figures.database}:`);
  console.log(line('new firing alerts (insert + event)', figures.newAlerts));
  console.log(line('repeated alerts (deduplicated, counted)', figures.repeats));
  console.log(
    `${'rules engine, firing alerts to incidents'.padEnd(44)} ${figures.engine.perSecond.toFixed(0)} events/s: ${figures.engine.events} events in ` +
      `${figures.engine.seconds.toFixed(1)} s into ${figures.engine.incidents} incidents (one consumer)`,
  );
}

/** The section `npm run bench -- --only alerts` prints: on a fresh embedded database, and on DATABASE_URL when set. */
export async function reportAlerts(heading: (title: string) => void): Promise<void> {
  heading('Alert ingestion');
  const [load = 0] = os.loadavg();
  console.log(`In-process server (api role); load average before: ${load.toFixed(1)} on ${os.availableParallelism()} cores`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-bench-alerts-'));
  try {
    const db = await openDatabase({ dataDir, statementTimeoutMs: 0 });
    try {
      await migrate(db.pool);
      print(await benchOn(db, 'Embedded PGlite (fresh database)', dataDir));
    } finally {
      await db.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl === undefined || databaseUrl === '') {
    console.log('PostgreSQL: skipped (set DATABASE_URL to measure it too).');
    return;
  }
  // A private folder of its own: the server makes its data folder private (0700), which must never be the shared /tmp.
  const pgDataDir = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-bench-alerts-pg-'));
  try {
    const db = await openDatabase({ databaseUrl, dataDir: pgDataDir, statementTimeoutMs: 0 });
    try {
      await migrate(db.pool);
      print(await benchOn(db, 'PostgreSQL (DATABASE_URL)', pgDataDir));
    } finally {
      await db.close();
    }
  } finally {
    rmSync(pgDataDir, { recursive: true, force: true });
  }
}
