import { useMutation } from '@tanstack/react-query';
import { isApiError } from '@/lib/api/api-error';
import { requestJson } from '@/lib/api/http';
import type { ConnectionInput } from './types';

export const TEST_SUCCESS_MESSAGE = 'Connection successful';
export const TEST_UNSUPPORTED_MESSAGE = 'We currently do not support testing this connection type';
export const TEST_FAILED_MESSAGE = 'Testing connection failed!';

const HTTP_BAD_REQUEST = 400;
const HTTP_NOT_IMPLEMENTED = 501;

export type ConnectionTestOutcome =
  | { kind: 'success' }
  | { kind: 'unsupported' }
  /** The server's error, pretty-printed when it is JSON. */
  | { kind: 'error'; detail: string }
  | { kind: 'failed' };

/** A saved connection is tested by id; an unsaved or edited form sends its fields (with the id to reuse stored secrets). */
export type ConnectionTestRequest = { id: string } | { input: ConnectionInput & { id?: string } };

function prettyDetail(body: unknown): string {
  if (typeof body === 'string') {
    try {
      return JSON.stringify(JSON.parse(body), null, 2);
    } catch {
      return body;
    }
  }
  return JSON.stringify(body, null, 2);
}

/** Success needs status 200 and message 'ok' (spec 002 §7); every failure becomes one of the spec's outcomes. */
export async function testConnection(request: ConnectionTestRequest): Promise<ConnectionTestOutcome> {
  try {
    const result =
      'id' in request
        ? await requestJson<{ message?: unknown }>(`/api/canary/connection/test/${encodeURIComponent(request.id)}`, { method: 'POST', silent: true })
        : await requestJson<{ message?: unknown }>('/api/canary/connection/test', { method: 'POST', json: request.input, silent: true });
    return result.message === 'ok' ? { kind: 'success' } : { kind: 'failed' };
  } catch (error) {
    if (!isApiError(error)) return { kind: 'failed' };
    if (error.status === HTTP_NOT_IMPLEMENTED) return { kind: 'unsupported' };
    if (error.status === HTTP_BAD_REQUEST && error.body !== null) return { kind: 'error', detail: prettyDetail(error.body) };
    return { kind: 'failed' };
  }
}

export function useTestConnection() {
  return useMutation({ mutationFn: testConnection });
}
