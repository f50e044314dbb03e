function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * The human message of an error body. Besides `{message}` it understands the identity service's
 * `{error: {message, reason}}` so one helper serves every endpoint.
 */
export function messageFromBody(body: unknown): string | null {
  if (!isRecord(body)) return typeof body === 'string' && body.trim() !== '' ? body : null;
  if (typeof body.message === 'string' && body.message !== '') return body.message;
  const nested = body.error;
  if (isRecord(nested)) {
    if (typeof nested.message === 'string' && nested.message !== '') return nested.message;
    if (typeof nested.reason === 'string' && nested.reason !== '') return nested.reason;
  }
  return null;
}

export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, body: unknown, fallbackMessage = `Request failed with status ${status}`) {
    super(messageFromBody(body) ?? fallbackMessage);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  get code(): string | null {
    return isRecord(this.body) && typeof this.body.code === 'string' ? this.body.code : null;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Reads a body as JSON when it is JSON, as text otherwise, and as null when empty. */
export async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}
