import type { ResolvedConnection } from '../connections';

export interface JiraIssueFields {
  project: string;
  issueType: string;
  priority: string;
  summary: string;
  description: string;
}

export interface CreatedJiraIssue {
  id: string;
  key: string;
  link: string;
}

const REQUEST_TIMEOUT_MS = 15_000;

function errorText(status: number, body: unknown): string {
  if (typeof body === 'object' && body !== null) {
    const { errorMessages, errors } = body as { errorMessages?: unknown; errors?: unknown };
    const parts: string[] = [];
    if (Array.isArray(errorMessages)) parts.push(...errorMessages.filter((m): m is string => typeof m === 'string'));
    if (typeof errors === 'object' && errors !== null) {
      for (const [field, message] of Object.entries(errors as Record<string, unknown>)) parts.push(`${field}: ${String(message)}`);
    }
    if (parts.length > 0) return `Jira answered ${status}: ${parts.join('; ')}`;
  }
  return `Jira answered ${status}`;
}

/**
 * The browse link of an issue: the team's responder_clients.jira.linkUrl with {key} replaced when it has one, the
 * linkUrl followed by the key when it has none, else {instance url}/browse/{key}.
 */
export function jiraIssueLink(baseUrl: string, key: string, linkUrl?: string): string {
  if (linkUrl !== undefined && linkUrl !== '') return linkUrl.includes('{key}') ? linkUrl.replace('{key}', key) : `${linkUrl}${key}`;
  return `${baseUrl.replace(/\/+$/, '')}/browse/${encodeURIComponent(key)}`;
}

/** Creates an issue through Jira's REST API v2 with basic authentication (username and API token). */
export async function createJiraIssue(connection: ResolvedConnection, fields: JiraIssueFields, linkUrl?: string): Promise<CreatedJiraIssue> {
  if (connection.url === null || connection.url === '') throw new Error(`Jira connection ${connection.name} has no url`);
  const base = connection.url.replace(/\/+$/, '');
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (connection.username !== null && connection.username !== '') {
    headers.authorization = `Basic ${Buffer.from(`${connection.username}:${connection.password ?? ''}`).toString('base64')}`;
  }
  const response = await fetch(`${base}/rest/api/2/issue`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      fields: {
        project: { key: fields.project },
        issuetype: { name: fields.issueType },
        priority: { name: fields.priority },
        summary: fields.summary,
        description: fields.description,
      },
    }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text === '' ? null : (JSON.parse(text) as unknown);
  } catch {
    body = null;
  }
  if (!response.ok) throw new Error(errorText(response.status, body));
  const { id, key } = (body ?? {}) as { id?: unknown; key?: unknown };
  if (typeof key !== 'string' || key === '') throw new Error('Jira created no issue key');
  return { id: typeof id === 'string' ? id : String(id ?? ''), key, link: jiraIssueLink(base, key, linkUrl) };
}
