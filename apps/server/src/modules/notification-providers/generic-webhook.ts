import type { DeliveryOptions, DeliveryReceipt, NotificationMessage, ResolvedConnection } from '../connections';
import { basicAuthorization, expectSuccess, requireValue, sendRequest } from './http';

/**
 * The receiver is the user's own, so it gets the title and the Markdown body under the keys the connection names: as
 * JSON or a form for POST (by properties.contentType), as query parameters for GET.
 */
export async function deliverGenericWebhook(connection: ResolvedConnection, message: NotificationMessage, options: DeliveryOptions): Promise<DeliveryReceipt> {
  const target = new URL(requireValue(connection.url, 'The URL'));
  const method = (connection.properties.requestMethod ?? 'POST').toUpperCase() === 'GET' ? 'GET' : 'POST';
  const contentType = connection.properties.contentType ?? 'application/json';
  const fields: Record<string, string> = {
    [connection.properties.titleKey ?? 'title']: message.title,
    [connection.properties.messageKey ?? 'message']: message.body,
  };
  const headers: Record<string, string> = { 'idempotency-key': message.idempotencyKey, ...basicAuthorization(connection.username, connection.password) };
  let body: string | undefined;
  if (method === 'GET') {
    for (const [key, value] of Object.entries(fields)) target.searchParams.set(key, value);
  } else {
    headers['content-type'] = contentType;
    if (/json/i.test(contentType)) body = JSON.stringify(fields);
    else if (/x-www-form-urlencoded/i.test(contentType)) body = new URLSearchParams(fields).toString();
    else body = `${message.title}\n\n${message.body}`;
  }
  const response = await sendRequest({
    url: target.toString(),
    method,
    headers,
    ...(body === undefined ? {} : { body }),
    insecureTls: connection.insecureTls,
    signal: options.signal,
  });
  expectSuccess('The webhook', response);
  return { providerMessageId: null };
}
