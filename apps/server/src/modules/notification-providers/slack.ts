import type { DeliveryOptions, DeliveryReceipt, NotificationMessage, ResolvedConnection } from '../connections';
import { isRecord, joinUrl, parseJson, requireValue, sendRequest, excerpt } from './http';
import { escapeSlack, markdownToSlack } from './render';

const SLACK_API = 'https://slack.com';

/**
 * Web API chat.postMessage with the bot token. The connection's url, when set, replaces https://slack.com as the base
 * (a proxy, or a local server in tests). Slack answers 200 with `{ok:false}` when it refuses.
 */
export async function deliverSlack(connection: ResolvedConnection, message: NotificationMessage, options: DeliveryOptions): Promise<DeliveryReceipt> {
  const token = requireValue(connection.password, 'The bot token');
  const channel = requireValue(message.options.channel ?? connection.properties.channel, 'The channel');
  const body = markdownToSlack(message.body);
  const link = message.url === null ? '' : `\n<${message.url}|Open in Opsdeck>`;
  const botName = connection.properties.botName ?? '';
  const response = await sendRequest({
    url: joinUrl(connection.url === null || connection.url === '' ? SLACK_API : connection.url, 'api/chat.postMessage'),
    headers: { 'content-type': 'application/json; charset=utf-8', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      channel,
      text: `*${escapeSlack(message.title)}*${body === '' ? '' : `\n${body}`}${link}`,
      mrkdwn: true,
      ...(botName === '' ? {} : { username: botName }),
    }),
    insecureTls: connection.insecureTls,
    signal: options.signal,
  });
  const answer = parseJson(response.body);
  if (response.status < 200 || response.status >= 300 || !isRecord(answer)) {
    throw new Error(`Slack answered HTTP ${response.status}: ${excerpt(response.body)}`);
  }
  if (answer.ok !== true) throw new Error(`Slack refused the message: ${typeof answer.error === 'string' ? answer.error : 'unknown error'}`);
  return { providerMessageId: typeof answer.ts === 'string' ? answer.ts : null };
}
