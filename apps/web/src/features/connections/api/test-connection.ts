import { useMutation } from '@tanstack/react-query';
import { isApiError } from '@/lib/api/api-error';
import { requestJson } from '@/lib/api/http';
import type { ConnectionInput } from './types';

export const TEST_SUCCESS_MESSAGE = 'Connection successful';
export const TEST_UNSUPPORTED_MESSAGE = 'We currently do not support testing this connection type';
export const TEST_FAILED_MESSAGE = 'Testing connection failed!';

const HTTP_BAD_REQUEST = 400;
const HTTP_NOT_IMPLEMENTED = 501;

/** What the server said about a failed test, in words, with its whole answer kept for the folded details. */
export interface ConnectionTestFailure {
  /** The server's sentence (e.g. 'connect ECONNREFUSED 10.0.0.5:5432'), or null when it gave none. */
  message: string | null;
  /** Its `details` and `hint`, e.g. which field was refused. */
  explanation: string[];
  /** The raw answer, pretty-printed when it is JSON. */
  raw: string | null;
}

export type ConnectionTestOutcome =
  | { kind: 'success' }
  | { kind: 'unsupported' }
  /** The server refused or could not reach the connection (400) and said why. */
  | ({ kind: 'error' } & ConnectionTestFailure)
  /** Any other failure; whatever the server answered is kept for the details. */
  | ({ kind: 'failed' } & ConnectionTestFailure);

/** A saved connection is tested by id; an unsaved or edited form sends its fields (with the id to reuse stored secrets). */
export type ConnectionTestRequest = { id: string } | { input: ConnectionInput & { id?: string } };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmpty(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function parsed(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

function prettyDetail(body: unknown): string | null {
  if (body === null || body === undefined) return null;
  const value = parsed(body);
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

export function describeFailure(body: unknown): ConnectionTestFailure {
  const value = parsed(body);
  if (!isRecord(value)) return { message: nonEmpty(value), explanation: [], raw: null };
  const explanation = [nonEmpty(value.details), nonEmpty(value.hint)].filter((part): part is string => part !== null);
  return { message: nonEmpty(value.message), explanation, raw: prettyDetail(value) };
}

/** Success needs status 200 and message 'ok' (spec 002 §7); every failure becomes one of the spec's outcomes. */
export async function testConnection(request: ConnectionTestRequest): Promise<ConnectionTestOutcome> {
  try {
    const result =
      'id' in request
        ? await requestJson<{ message?: unknown }>(`/api/canary/connection/test/${encodeURIComponent(request.id)}`, { method: 'POST', silent: true })
        : await requestJson<{ message?: unknown }>('/api/canary/connection/test', { method: 'POST', json: request.input, silent: true });
    return result.message === 'ok' ? { kind: 'success' } : { kind: 'failed', ...describeFailure(result) };
  } catch (error) {
    if (!isApiError(error)) return { kind: 'failed', message: null, explanation: [], raw: error instanceof Error ? error.message : null };
    if (error.status === HTTP_NOT_IMPLEMENTED) return { kind: 'unsupported' };
    if (error.status === HTTP_BAD_REQUEST && error.body !== null) return { kind: 'error', ...describeFailure(error.body) };
    return { kind: 'failed', ...describeFailure(error.body) };
  }
}

export function useTestConnection() {
  return useMutation({ mutationFn: testConnection });
}
