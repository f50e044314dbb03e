import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { SERVER_ENTRY, ensureServerBuild } from './lib/server-build.mjs';
import { ROOT, ensureWebBuild } from './lib/web-build.mjs';

try {
  ensureServerBuild();
  ensureWebBuild();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

// Source maps point stack traces at the TypeScript sources rather than at the bundle.
const server = spawn(process.execPath, ['--enable-source-maps', SERVER_ENTRY, 'serve', ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: 'inherit',
});

// The server closes its database on SIGTERM/SIGINT; this wrapper stays alive until it has, so the lock file and the
// embedded database are released before the terminal gets its prompt back.
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    if (server.exitCode === null && server.signalCode === null) server.kill(signal);
  });
}

server.on('exit', (code, signal) => {
  process.exit(code ?? 128 + (signal === null ? 1 : constants.signals[signal]));
});
