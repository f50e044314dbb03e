import type { DeliveryOptions, DeliveryReceipt, NotificationMessage, ResolvedConnection } from '../connections';
import { excerpt, isRecord, joinUrl, parseJson, requireValue, sendRequest } from './http';
import { escapeHtml, markdownToText, truncate } from './render';

const TELEGRAM_API = 'https://api.telegram.org';
const MAX_TEXT = 4096;

/**
 * Bot API sendMessage to every chat in properties.chats (comma-separated). Telegram's HTML mode accepts only a few
 * tags, so the body goes as escaped plain text under a bold title. The connection's url, when set, replaces
 * https://api.telegram.org as the base (a Bot API server of one's own, or a local server in tests).
 */
export async function deliverTelegram(connection: ResolvedConnection, message: NotificationMessage, options: DeliveryOptions): Promise<DeliveryReceipt> {
  const token = requireValue(connection.password, 'The bot token');
  const chats = requireValue(connection.properties.chats, 'Chats')
    .split(',')
    .map((chat) => chat.trim())
    .filter((chat) => chat !== '');
  const link = message.url === null ? '' : `\n\n<a href="${escapeHtml(message.url)}">Open in Opsdeck</a>`;
  const body = escapeHtml(truncate(markdownToText(message.body), MAX_TEXT - message.title.length - link.length - 16));
  const text = `<b>${escapeHtml(message.title)}</b>${body === '' ? '' : `\n\n${body}`}${link}`;
  const base = connection.url === null || connection.url === '' ? TELEGRAM_API : connection.url;
  const ids: string[] = [];
  for (const chat of chats) {
    const response = await sendRequest({
      url: joinUrl(base, `bot${token}/sendMessage`),
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: chat, text, parse_mode: 'HTML' }),
      insecureTls: connection.insecureTls,
      signal: options.signal,
    });
    const answer = parseJson(response.body);
    if (!isRecord(answer) || answer.ok !== true) {
      const description = isRecord(answer) && typeof answer.description === 'string' ? answer.description : excerpt(response.body);
      throw new Error(`Telegram answered HTTP ${response.status} for chat ${chat}: ${description}`);
    }
    if (isRecord(answer.result) && typeof answer.result.message_id === 'number') ids.push(String(answer.result.message_id));
  }
  return { providerMessageId: ids.length === 0 ? null : ids.join(',') };
}
