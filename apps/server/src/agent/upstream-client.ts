/** Calls the upstream console with the agent's bearer token; every call has a deadline so a hung upstream is retried. */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 30_000;

export class UpstreamClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(new URL(path, this.baseUrl), {
        method,
        headers: {
          authorization: `Bearer ${this.token}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new UpstreamError(`upstream unreachable: ${error instanceof Error ? error.message : String(error)}`, null);
    }
    const text = await response.text();
    if (!response.ok) throw new UpstreamError(`upstream answered ${response.status} to ${method} ${path}: ${text.slice(0, 500)}`, response.status);
    return (text === '' ? {} : JSON.parse(text)) as T;
  }
}
