import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The lowest port the system hands to outgoing connections (Linux's ip_local_port_range), 32768 when unknown. */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 11_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * A port nothing listens on, for a server started next (and perhaps restarted on it). It is below the system's range
 * for outgoing connections: a port from that range (what listening on 0 gives) was once taken by a connection of the
 * tests running beside it between this probe and the server's own bind.
 */
export async function freePort(): Promise<number> {
  const low = ephemeralLow();
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = 10_000 + Math.floor(Math.random() * (low - 10_000));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between 10000 and ${low - 1}`);
}

/**
 * The environment of a compiled server a bench starts: this process's, on `dataDir` and loopback `port`, without the
 * demo data, with `extra` on top.
 */
export function benchServerEnv(dataDir: string, port: number, extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', OPSDECK_SEED_DEMO: 'false', ...extra };
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
