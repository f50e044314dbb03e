import type pg from 'pg';
import type { QueuedEvent } from '../../platform/event-queue';
import { resolveConnection, type ResolvedConnection } from '../connections';
import { sendResponderEmail } from './email-responder';
import { createJiraIssue } from './jira-responder';

export const RESPONDER_CREATED_EVENT = 'responder.created';

interface ResponderRow {
  id: string;
  type: string;
  properties: Record<string, unknown>;
  external_id: string | null;
  deleted_at: string | null;
  team_spec: Record<string, unknown> | null;
}

interface ClientSettings {
  connection?: string;
  linkUrl?: string;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
}

/** teams.spec.responder_clients.{type}: {connection, linkUrl, defaults...}. */
function clientSettings(teamSpec: Record<string, unknown> | null, type: string): ClientSettings {
  const clients = teamSpec?.responder_clients;
  if (typeof clients !== 'object' || clients === null) return {};
  const entry = (clients as Record<string, unknown>)[type];
  if (typeof entry !== 'object' || entry === null) return {};
  const { connection, linkUrl } = entry as Record<string, unknown>;
  return {
    ...(typeof connection === 'string' && connection !== '' ? { connection } : {}),
    ...(typeof linkUrl === 'string' && linkUrl !== '' ? { linkUrl } : {}),
  };
}

/**
 * Notifies the system behind a new responder. The connection comes from the responder's properties (`connection` for
 * email, `instance` for Jira) or else the team's spec.responder_clients.{type}.connection. Email sends the message;
 * Jira opens an issue and stores its key as external_id and its browse link as properties.link. Other types are
 * recorded only. A failure is written to properties.error (and rethrown, so the event queue keeps the event, its error
 * and attempts for a retry); a later success clears it.
 */
export function responderNotifier(pool: pg.Pool, secretKey: Buffer): (event: QueuedEvent) => Promise<void> {
  const connectionFor = async (ref: string | undefined, kinds: readonly string[], label: string): Promise<ResolvedConnection> => {
    if (ref === undefined || ref === '') throw new Error(`No ${label} connection is configured for this responder or its team`);
    const connection = await resolveConnection(pool, secretKey, ref);
    if (!kinds.includes(connection.type)) throw new Error(`The connection ${ref} is of type ${connection.type}, not ${kinds.join(' or ')}`);
    return connection;
  };

  return async (event) => {
    const id = str(event.properties.id);
    const result = await pool.query<ResponderRow>(
      `select r.id, r.type, r.properties, r.external_id, r.deleted_at, t.spec as team_spec
         from responders r left join teams t on t.id = r.team_id
        where r.id = $1`,
      [id],
    );
    const responder = result.rows[0];
    if (responder === undefined || responder.deleted_at !== null || responder.type !== 'system') return;
    const props = responder.properties;
    const responderType = str(props.responderType);
    try {
      if (responderType === 'email') {
        const settings = clientSettings(responder.team_spec, 'email');
        const ref = str(props.connection) || settings.connection;
        const connection = await connectionFor(ref, ['email', 'smtp'], 'email');
        const messageId = await sendResponderEmail(connection, { to: str(props.to), subject: str(props.subject), body: str(props.body) });
        await pool.query(
          `update responders
              set properties = (properties - 'error') || jsonb_build_object('sent_at', now(), 'message_id', $2::text)
            where id = $1`,
          [responder.id, messageId],
        );
      } else if (responderType === 'jira') {
        if (responder.external_id !== null) return;
        const settings = clientSettings(responder.team_spec, 'jira');
        const ref = str(props.instance) || settings.connection;
        const connection = await connectionFor(ref, ['jira', 'http'], 'Jira');
        const issue = await createJiraIssue(
          connection,
          {
            project: str(props.project),
            issueType: str(props.issueType),
            priority: str(props.priority),
            summary: str(props.summary),
            description: str(props.description),
          },
          settings.linkUrl,
        );
        await pool.query(
          `update responders
              set external_id = $2,
                  properties = (properties - 'error') || jsonb_build_object('link', $3::text, 'issue_id', $4::text)
            where id = $1`,
          [responder.id, issue.key, issue.link, issue.id],
        );
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await pool.query(`update responders set properties = properties || jsonb_build_object('error', $2::text) where id = $1`, [
        responder.id,
        message.slice(0, 2000),
      ]);
      throw error;
    }
  };
}
