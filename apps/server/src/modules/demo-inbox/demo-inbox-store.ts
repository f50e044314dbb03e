import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'>;

/** The inbox keeps the newest messages only: it shows the demo working, it is not an archive. */
export const DEMO_INBOX_KEEP = 500;
/** A message body is cut here; a demo notification is a few hundred bytes. */
export const DEMO_INBOX_BODY_CHARS = 64 * 1024;
/** Webhook bodies and mails above this are refused whole. */
export const DEMO_INBOX_MAX_BYTES = 256 * 1024;

export interface InboxMessage {
  kind: 'webhook' | 'email';
  channel: string;
  sender: string | null;
  recipients: string[];
  subject: string | null;
  contentType: string | null;
  body: string;
}

export interface InboxRow {
  id: string;
  kind: 'webhook' | 'email';
  channel: string;
  sender: string | null;
  recipients: string[];
  subject: string | null;
  content_type: string | null;
  body: string;
  received_at: string;
}

/** Stores one message and drops what falls beyond the newest DEMO_INBOX_KEEP. */
export async function receiveInboxMessage(pool: Queryable, message: InboxMessage): Promise<void> {
  await pool.query(
    `insert into demo_inbox (kind, channel, sender, recipients, subject, content_type, body) values ($1, $2, $3, $4, $5, $6, $7)`,
    [
      message.kind,
      message.channel.slice(0, 200),
      message.sender?.slice(0, 320) ?? null,
      message.recipients.slice(0, 50).map((recipient) => recipient.slice(0, 320)),
      message.subject?.slice(0, 1000) ?? null,
      message.contentType?.slice(0, 200) ?? null,
      message.body.slice(0, DEMO_INBOX_BODY_CHARS),
    ],
  );
  await pool.query(`delete from demo_inbox where id <= (select id from demo_inbox order by id desc offset $1 limit 1)`, [DEMO_INBOX_KEEP]);
}

/** The newest messages first. */
export async function listInbox(pool: Queryable, limit: number): Promise<InboxRow[]> {
  const result = await pool.query<InboxRow>(
    `select id::text, kind, channel, sender, recipients, subject, content_type, body, received_at from demo_inbox order by id desc limit $1`,
    [limit],
  );
  return result.rows.map((row) => ({ ...row, received_at: new Date(row.received_at).toISOString() }));
}

export async function clearInbox(pool: Queryable): Promise<number> {
  const result = await pool.query('delete from demo_inbox');
  return result.rowCount ?? 0;
}
