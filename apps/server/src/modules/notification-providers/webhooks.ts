import type { DeliveryOptions, DeliveryReceipt, NotificationMessage, ResolvedConnection } from '../connections';
import { basicAuthorization, expectSuccess, isRecord, parseJson, requireValue, sendRequest } from './http';
import { escapeSlack, markdownToSlack, truncate } from './render';

const DISCORD_MAX_CONTENT = 2000;

async function postJson(provider: string, url: string, payload: unknown, connection: ResolvedConnection, options: DeliveryOptions): Promise<string> {
  const response = await sendRequest({
    url,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
    insecureTls: connection.insecureTls,
    signal: options.signal,
  });
  expectSuccess(provider, response);
  return response.body;
}

function withLink(markdownBody: string, url: string | null): string {
  return url === null ? markdownBody : `${markdownBody}\n\n[Open in Opsdeck](${url})`;
}

/** Discord renders Markdown itself; mentions in event text must never ping anyone, hence allowed_mentions. */
export async function deliverDiscord(connection: ResolvedConnection, message: NotificationMessage, options: DeliveryOptions): Promise<DeliveryReceipt> {
  const url = new URL(requireValue(connection.url, 'The webhook URL'));
  // wait=true makes Discord answer with the created message, so its id can be kept.
  url.searchParams.set('wait', 'true');
  const content = truncate(`**${message.title}**\n${withLink(message.body, message.url)}`, DISCORD_MAX_CONTENT);
  const answer = parseJson(await postJson('Discord', url.toString(), { content, allowed_mentions: { parse: [] } }, connection, options));
  return { providerMessageId: isRecord(answer) && typeof answer.id === 'string' ? answer.id : null };
}

/** Google Chat's text format is Slack's mrkdwn in all that matters here (*bold*, <url|text>, `code`). */
export async function deliverGoogleChat(connection: ResolvedConnection, message: NotificationMessage, options: DeliveryOptions): Promise<DeliveryReceipt> {
  const url = requireValue(connection.url, 'The webhook URL');
  const body = markdownToSlack(message.body);
  const link = message.url === null ? '' : `\n<${message.url}|Open in Opsdeck>`;
  const answer = parseJson(await postJson('Google Chat', url, { text: `*${escapeSlack(message.title)}*${body === '' ? '' : `\n${body}`}${link}` }, connection, options));
  return { providerMessageId: isRecord(answer) && typeof answer.name === 'string' ? answer.name : null };
}

/** Mattermost renders Markdown itself; the connection's username and channel override the webhook's defaults. */
export async function deliverMattermost(connection: ResolvedConnection, message: NotificationMessage, options: DeliveryOptions): Promise<DeliveryReceipt> {
  const url = requireValue(connection.url, 'The webhook URL');
  const channel = message.options.channel ?? connection.properties.channel ?? '';
  const username = connection.username ?? '';
  await postJson(
    'Mattermost',
    url,
    {
      text: `#### ${message.title}\n${withLink(message.body, message.url)}`,
      ...(username === '' ? {} : { username }),
      ...(channel === '' ? {} : { channel }),
    },
    connection,
    options,
  );
  return { providerMessageId: null };
}

/** `host` may carry a scheme (http://127.0.0.1:PORT for a local server); without one it is reached over https. */
function hostBase(host: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? host.replace(/\/+$/, '') : `https://${host}`;
}

/**
 * An Office 365 incoming webhook, its URL rebuilt from the fields the way shoutrrr's teams URL maps them, sent a
 * MessageCard (Teams renders a Markdown subset in its text).
 */
export async function deliverTeams(connection: ResolvedConnection, message: NotificationMessage, options: DeliveryOptions): Promise<DeliveryReceipt> {
  const { properties } = connection;
  const group = encodeURIComponent(requireValue(properties.group, 'Group'));
  const tenant = encodeURIComponent(requireValue(properties.tenant, 'Tenant'));
  const altId = encodeURIComponent(requireValue(properties.altID, 'Alt ID'));
  const groupOwner = encodeURIComponent(requireValue(properties.groupOwner, 'Group Owner'));
  const host = hostBase(properties.host ?? 'outlook.office.com');
  const card = {
    '@type': 'MessageCard',
    '@context': 'https://schema.org/extensions',
    summary: message.title,
    title: message.title,
    text: message.body,
    ...(message.url === null ? {} : { potentialAction: [{ '@type': 'OpenUri', name: 'Open in Opsdeck', targets: [{ os: 'default', uri: message.url }] }] }),
  };
  await postJson('Teams', `${host}/webhookb2/${group}@${tenant}/IncomingWebhook/${altId}/${groupOwner}`, card, connection, options);
  return { providerMessageId: null };
}

/** A header value must be Latin-1; anything else goes RFC 2047-encoded, which ntfy decodes. */
function headerValue(value: string): string {
  const flat = value.replace(/[\r\n]+/g, ' ');
  return /^[\x20-\x7e]*$/.test(flat) ? flat : `=?UTF-8?B?${Buffer.from(flat, 'utf8').toString('base64')}?=`;
}

/** A ntfy publish: POST the Markdown body to the topic, with the title and link as headers. */
export async function deliverNtfy(connection: ResolvedConnection, message: NotificationMessage, options: DeliveryOptions): Promise<DeliveryReceipt> {
  const topic = encodeURIComponent(requireValue(connection.properties.topic, 'Topic'));
  const base = connection.url !== null && connection.url !== '' ? connection.url.replace(/\/+$/, '') : hostBase(connection.properties.host ?? 'ntfy.sh');
  const headers: Record<string, string> = {
    'content-type': 'text/plain; charset=utf-8',
    title: headerValue(message.title),
    markdown: 'yes',
    ...basicAuthorization(connection.username, connection.password),
  };
  if (message.url !== null) headers.click = message.url;
  const response = await sendRequest({ url: `${base}/${topic}`, headers, body: message.body, insecureTls: connection.insecureTls, signal: options.signal });
  expectSuccess('ntfy', response);
  const answer = parseJson(response.body);
  return { providerMessageId: isRecord(answer) && typeof answer.id === 'string' ? answer.id : null };
}
