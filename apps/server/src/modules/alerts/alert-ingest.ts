import { createHash } from 'node:crypto';
import type pg from 'pg';
import { ALERT_LIMITS, alertErrors } from './alert-errors';
import type { AlertmanagerBody, GenericAlert, GenericBody, IngestReply } from './alert-payloads';

export type AlertSource = 'alertmanager' | 'webhook';

/** An alert as stored: one row per fingerprint. */
export interface NormalizedAlert {
  fingerprint: string;
  source: AlertSource;
  name: string;
  status: 'firing' | 'resolved';
  severity: string | null;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string | null;
  endsAt: string | null;
  generatorUrl: string | null;
}

interface RawAlert {
  name?: string | undefined;
  status: 'firing' | 'resolved';
  severity?: string | undefined;
  labels: Record<string, string>;
  annotations?: Record<string, string> | undefined;
  fingerprint?: string | undefined;
  startsAt?: string | undefined;
  endsAt?: string | undefined;
  generatorURL?: string | undefined;
}

function checkMap(field: string, map: Record<string, string>, valueLength: number): void {
  const entries = Object.entries(map);
  if (entries.length > ALERT_LIMITS.labelsPerAlert) throw alertErrors.invalid(field, `has ${entries.length} entries; at most ${ALERT_LIMITS.labelsPerAlert}`);
  for (const [key, value] of entries) {
    if (key === '' || key.length > ALERT_LIMITS.labelKeyLength) throw alertErrors.invalid(`${field}.${key.slice(0, 40)}`, `key must be 1 to ${ALERT_LIMITS.labelKeyLength} characters`);
    if (value.length > valueLength) throw alertErrors.invalid(`${field}.${key}`, `value is longer than ${valueLength} characters`);
  }
}

/** An RFC 3339 time as ISO text; Go's zero time (Alertmanager's endsAt of a firing alert) and blanks are no time. */
function timeOf(field: string, text: string | undefined): string | null {
  if (text === undefined || text.trim() === '' || text.startsWith('0001-01-01')) return null;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw alertErrors.invalid(field, 'is not an RFC 3339 time');
  return new Date(ms).toISOString();
}

/** A fingerprint for alerts that come without one: the sha256 of their labels, sorted by key. */
export function labelFingerprint(labels: Readonly<Record<string, string>>): string {
  const sorted = Object.keys(labels)
    .sort()
    .map((key) => [key, labels[key]]);
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex');
}

function normalize(source: AlertSource, raw: RawAlert, index: number): NormalizedAlert {
  const at = `alerts[${index}]`;
  checkMap(`${at}.labels`, raw.labels, ALERT_LIMITS.labelValueLength);
  const annotations = raw.annotations ?? {};
  checkMap(`${at}.annotations`, annotations, ALERT_LIMITS.annotationValueLength);
  const name = (raw.name ?? raw.labels.alertname ?? '').trim();
  if (name === '') throw alertErrors.invalid(`${at}.name`, 'is missing: give name or labels.alertname');
  if (name.length > ALERT_LIMITS.nameLength) throw alertErrors.invalid(`${at}.name`, `is longer than ${ALERT_LIMITS.nameLength} characters`);
  const given = raw.fingerprint?.trim() ?? '';
  if (given.length > ALERT_LIMITS.fingerprintLength) throw alertErrors.invalid(`${at}.fingerprint`, `is longer than ${ALERT_LIMITS.fingerprintLength} characters`);
  const generatorUrl = raw.generatorURL?.trim() ?? '';
  if (generatorUrl.length > ALERT_LIMITS.generatorUrlLength) throw alertErrors.invalid(`${at}.generatorURL`, `is longer than ${ALERT_LIMITS.generatorUrlLength} characters`);
  const severity = (raw.severity ?? raw.labels.severity ?? '').trim().toLowerCase();
  return {
    fingerprint: given !== '' ? given : labelFingerprint({ alertname: name, ...raw.labels }),
    source,
    name,
    status: raw.status,
    severity: severity === '' ? null : severity.slice(0, 64),
    labels: raw.labels,
    annotations,
    startsAt: timeOf(`${at}.startsAt`, raw.startsAt),
    endsAt: timeOf(`${at}.endsAt`, raw.endsAt),
    generatorUrl: generatorUrl === '' ? null : generatorUrl,
  };
}

function checkCount(count: number): void {
  if (count > ALERT_LIMITS.alertsPerRequest) throw alertErrors.tooMany(count);
}

export function alertsFromAlertmanager(body: AlertmanagerBody): NormalizedAlert[] {
  if (body.version !== undefined && body.version !== '4') throw alertErrors.invalid('version', `is ${body.version}; this endpoint reads version 4`);
  checkCount(body.alerts.length);
  return body.alerts.map((alert, index) => normalize('alertmanager', alert, index));
}

export function alertsFromWebhook(body: GenericBody): NormalizedAlert[] {
  const alerts: GenericAlert[] = 'alerts' in body ? body.alerts : [body];
  checkCount(alerts.length);
  return alerts.map((alert, index) => normalize('webhook', alert, index));
}

/**
 * Stores a request's alerts in one statement: each fingerprint inserted or updated (a repeat of the same status only
 * bumps last_received_at and count), and an alert.firing or alert.resolved event for every alert whose status changed
 * (a new firing alert counts; a new alert that is already resolved does not), only when some consumer subscribed.
 * Within a request the last alert of a fingerprint wins.
 */
export async function ingestAlerts(pool: pg.Pool, alerts: readonly NormalizedAlert[]): Promise<IngestReply & { events: number }> {
  const firing = alerts.filter((alert) => alert.status === 'firing').length;
  const reply = { accepted: alerts.length, firing, resolved: alerts.length - firing };
  if (alerts.length === 0) return { ...reply, events: 0 };
  const latest = new Map<string, NormalizedAlert>();
  for (const alert of alerts) {
    latest.delete(alert.fingerprint);
    latest.set(alert.fingerprint, alert);
  }
  const rows = [...latest.values()];
  const result = await pool.query<{ events: number }>(
    `with input as (
       select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::jsonb[], $7::jsonb[],
                            $8::timestamptz[], $9::timestamptz[], $10::text[])
         as i (fingerprint, source, name, status, severity, labels, annotations, starts_at, ends_at, generator_url)
     ), upserted as (
       insert into alerts as a (fingerprint, source, name, status, severity, labels, annotations, starts_at, ends_at, generator_url)
       select fingerprint, source, name, status, severity, labels, annotations, starts_at, ends_at, generator_url from input
       on conflict (fingerprint) do update
         set source = excluded.source, name = excluded.name, status = excluded.status, severity = excluded.severity,
             labels = excluded.labels, annotations = excluded.annotations,
             starts_at = coalesce(excluded.starts_at, a.starts_at), ends_at = excluded.ends_at,
             generator_url = coalesce(excluded.generator_url, a.generator_url),
             last_received_at = now(), count = a.count + 1,
             status_changed_at = case when a.status is distinct from excluded.status then now() else a.status_changed_at end
       returning a.id, a.fingerprint, a.name, a.status, a.severity, (xmax = 0) as inserted, a.status_changed_at = now() as changed
     ), events as (
       insert into event_queue (name, properties)
       select 'alert.' || u.status,
              jsonb_build_object('id', u.id, 'alert_id', u.id, 'fingerprint', u.fingerprint, 'name', u.name, 'status', u.status, 'severity', u.severity)
         from upserted u
        where u.changed and not (u.inserted and u.status = 'resolved') and event_queue_wanted('alert.' || u.status)
       returning 1
     )
     select (select count(*)::integer from events) as events`,
    [
      rows.map((row) => row.fingerprint),
      rows.map((row) => row.source),
      rows.map((row) => row.name),
      rows.map((row) => row.status),
      rows.map((row) => row.severity),
      rows.map((row) => JSON.stringify(row.labels)),
      rows.map((row) => JSON.stringify(row.annotations)),
      rows.map((row) => row.startsAt),
      rows.map((row) => row.endsAt),
      rows.map((row) => row.generatorUrl),
    ],
  );
  return { ...reply, events: result.rows[0]?.events ?? 0 };
}
