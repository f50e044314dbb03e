import { createServer } from 'node:net';

/** A port nothing listens on right now, for a server the bench starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export interface HealthWait {
  hasExited: () => boolean;
  /** What the server has printed so far, for the error when it fails to start. */
  output: () => string;
  timeoutMs: number;
  pollMs: number;
}

/** Polls `${url}/healthz` until it answers 200; fails when the server exits first or the time runs out. */
export async function waitUntilHealthy(url: string, { hasExited, output, timeoutMs, pollMs }: HealthWait): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (hasExited()) throw new Error(`the server exited during start-up:\n${output()}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  throw new Error(`the server did not answer /healthz within ${timeoutMs / 1000} s:\n${output()}`);
}
