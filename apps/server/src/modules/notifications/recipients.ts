import type pg from 'pg';

/**
 * One entry of notifications.custom_services or teams.spec.notifications as parsed here: a connection, and its provider
 * options gathered from the entry's other keys.
 */
export interface ParsedCustomService {
  connection: string;
  name: string | null;
  options: Record<string, string>;
}

/** The parsed list, or null when the value is not a non-empty list of entries each naming a connection. */
export function customServicesOf(value: unknown): ParsedCustomService[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const services: ParsedCustomService[] = [];
  for (const entry of value) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return null;
    const { connection, name, ...rest } = entry as Record<string, unknown>;
    if (typeof connection !== 'string' || connection.trim() === '') return null;
    const options: Record<string, string> = {};
    for (const [key, option] of Object.entries(rest)) {
      if (typeof option === 'string' || typeof option === 'number' || typeof option === 'boolean') options[key] = String(option);
    }
    services.push({ connection: connection.trim(), name: typeof name === 'string' ? name : null, options });
  }
  return services;
}

/**
 * Where one message of a notification goes. `key` is stable for the same recipient across events: it is part of the
 * idempotency key and of the flap window's lookup.
 */
export type Recipient =
  | { kind: 'email'; key: string; personId: string; email: string; connection: string | null }
  | { kind: 'service'; key: string; service: ParsedCustomService }
  | { kind: 'playbook'; key: string; playbookId: string }
  | { kind: 'unreachable'; key: string; personId: string | null; reason: string };

export interface NotificationTarget {
  person_id: string | null;
  team_id: string | null;
  custom_services: unknown;
  playbook_id: string | null;
  properties: Record<string, unknown>;
}

interface PersonRow {
  id: string;
  name: string;
  email: string | null;
}

/** notification.properties.connection names the email connection for people; else the server's first email one. */
function emailConnectionOf(properties: Record<string, unknown>): string | null {
  const connection = properties.connection;
  return typeof connection === 'string' && connection.trim() !== '' ? connection.trim() : null;
}

function personRecipient(person: PersonRow, connection: string | null): Recipient {
  if (person.email === null || person.email.trim() === '') {
    return { kind: 'unreachable', key: `person:${person.id}`, personId: person.id, reason: `${person.name} has no email address` };
  }
  const email = person.email.trim().toLowerCase();
  return { kind: 'email', key: `email:${email}`, personId: person.id, email, connection };
}

function serviceRecipients(services: readonly ParsedCustomService[]): Recipient[] {
  return services.map((service) => ({ kind: 'service', key: `service:${service.connection}${service.name === null ? '' : `#${service.name}`}`, service }));
}

/**
 * Person: the person's email. Team: the channels its spec names (teams.spec.notifications, entries as custom_services)
 * when there are any, else every member's email. Playbook: a run of it (whether it still exists is judged when the run
 * is requested, so the send history says why it did not run). Others: each custom service's connection.
 */
export async function resolveRecipients(pool: pg.Pool, target: NotificationTarget): Promise<Recipient[]> {
  if (target.playbook_id !== null) return [{ kind: 'playbook', key: `playbook:${target.playbook_id}`, playbookId: target.playbook_id }];
  const emailConnection = emailConnectionOf(target.properties);
  if (target.person_id !== null) {
    const result = await pool.query<PersonRow>('select id, name, email from people where id = $1 and deleted_at is null', [target.person_id]);
    const person = result.rows[0];
    return person === undefined ? [] : [personRecipient(person, emailConnection)];
  }
  if (target.team_id !== null) {
    const team = await pool.query<{ spec: Record<string, unknown> | null }>('select spec from teams where id = $1 and deleted_at is null', [target.team_id]);
    const row = team.rows[0];
    if (row === undefined) return [];
    const channels = customServicesOf(row.spec?.notifications);
    if (channels !== null) return serviceRecipients(channels);
    const members = await pool.query<PersonRow>(
      `select p.id, p.name, p.email from team_members m join people p on p.id = m.person_id
        where m.team_id = $1 and p.deleted_at is null order by p.name, p.id`,
      [target.team_id],
    );
    return members.rows.map((person) => personRecipient(person, emailConnection));
  }
  return serviceRecipients(customServicesOf(target.custom_services) ?? []);
}
