// Runs the Playwright specs against the built server and web app, started as `npm start` starts them: one seeded
// template data folder per run, copied into the data folder of the server the specs talk to, so the specs always start
// from the demo data and never touch ./data.
//   node scripts/e2e.mjs [playwright test arguments]
// E2E_JSON_REPORT=<file> adds Playwright's JSON report (read by scripts/test-summary.mjs for counts and file times).
import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { once } from 'node:events';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { SERVER_ENTRY, ensureServerBuild } from './lib/server-build.mjs';
import { ROOT, WEB_DIST, ensureWebBuild } from './lib/web-build.mjs';

const SERVER_START_TIMEOUT_MS = 180_000;
const SERVER_STOP_TIMEOUT_MS = 30_000;

/** The lowest port the system hands to outgoing connections (Linux's ip_local_port_range), 32768 when unknown. */
function ephemeralLow() {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 11000 ? low : 32768;
  } catch {
    return 32768;
  }
}

function canListen(port) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * A port for both starts of the server, below the system's range for outgoing connections: the server suites beside
 * the specs open many, and one of them could take a port from that range between this probe and the server's bind.
 */
async function freePort() {
  const low = ephemeralLow();
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = 10000 + Math.floor(Math.random() * (low - 10000));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between 10000 and ${low - 1}`);
}

async function waitForHealth(url, child, logFile) {
  const deadline = Date.now() + SERVER_START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the server exited during start-up:\n${readFileSync(logFile, 'utf8')}`);
    }
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not answer /healthz within ${SERVER_START_TIMEOUT_MS / 1000}s:\n${readFileSync(logFile, 'utf8')}`);
}

/**
 * The identity mail of the run (recovery and verification codes, invitations) lands here: a loopback SMTP server
 * appends each message as a JSON line to `mailbox`, which the specs read (e2e/support/mailbox.ts).
 */
async function startMailSink(mailbox) {
  writeFileSync(mailbox, '');
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const to = (Array.isArray(mail.to) ? mail.to : mail.to === undefined ? [] : [mail.to]).flatMap((entry) => entry.value.map((address) => address.address));
          appendFileSync(mailbox, `${JSON.stringify({ to, subject: mail.subject ?? '', text: mail.text ?? '', receivedAt: new Date().toISOString() })}\n`);
          callback();
        })
        .catch((error) => callback(error));
    },
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `smtp://127.0.0.1:${server.server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

async function startServer(dataDir, logFile, port, smtpUrl) {
  const log = createWriteStream(logFile);
  await once(log, 'open');
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    OPSDECK_WEB_DIST: WEB_DIST,
    OPSDECK_SEED_DEMO: 'true',
    LOG_LEVEL: process.env.E2E_SERVER_LOG_LEVEL ?? 'warn',
    // The log is printed when a spec fails, for a person to read.
    LOG_FORMAT: 'pretty',
    OPSDECK_SMTP_URL: smtpUrl,
  };
  // The specs always run on the embedded database, whatever the developer's shell points at.
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--enable-source-maps', SERVER_ENTRY, 'serve'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', log, log],
  });
  const url = `http://127.0.0.1:${port}`;
  const exited = once(child, 'exit');
  try {
    await waitForHealth(url, child, logFile);
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    throw error;
  }
  return {
    url,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), SERVER_STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

function runPlaywright(baseUrl, runId, mailbox, args) {
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '--config', path.join(ROOT, 'e2e/playwright.config.ts'), ...args],
    // E2E_STARTED_AT: what the specs make is newer, so the smoke crawl can tell the demo data from the other specs' rows.
    { cwd: ROOT, env: { ...process.env, E2E_BASE_URL: baseUrl, E2E_RUN_ID: runId, E2E_MAILBOX: mailbox, E2E_STARTED_AT: new Date().toISOString() }, stdio: 'inherit' },
  );
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal === null ? 1 : 128))));
}

async function main() {
  ensureServerBuild();
  ensureWebBuild();
  mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
  const runDir = mkdtempSync(path.join(ROOT, '.tmp/e2e-'));
  const runId = path.basename(runDir);
  let server;
  let mailSink;
  const stopAndClean = async () => {
    await server?.stop();
    await mailSink?.close();
    // E2E_KEEP_DATA=1 keeps the data folders and logs to inspect what the specs left behind.
    if (process.env.E2E_KEEP_DATA === '1') {
      console.log(`e2e: kept ${runDir}`);
      return;
    }
    rmSync(runDir, { recursive: true, force: true });
    // The saved sessions belong to this run's database, which is gone now.
    rmSync(path.join(ROOT, 'e2e/.auth', runId), { recursive: true, force: true });
  };
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      stopAndClean().finally(() => process.exit(130));
    });
  }
  try {
    // One port for both starts: the demo health checks seeded into the template probe the server at this address.
    const port = await freePort();
    const mailbox = path.join(runDir, 'mailbox.jsonl');
    mailSink = await startMailSink(mailbox);
    const templateDir = path.join(runDir, 'template');
    console.log('e2e: creating the seeded template data folder…');
    const seeding = await startServer(templateDir, path.join(runDir, 'template.log'), port, mailSink.url);
    await seeding.stop();

    const dataDir = path.join(runDir, 'data');
    cpSync(templateDir, dataDir, { recursive: true });
    rmSync(path.join(dataDir, 'opsdeck.lock'), { force: true });
    const logFile = path.join(runDir, 'server.log');
    server = await startServer(dataDir, logFile, port, mailSink.url);
    console.log(`e2e: server at ${server.url}`);

    const code = await runPlaywright(server.url, runId, mailbox, process.argv.slice(2));
    if (code !== 0) {
      const log = readFileSync(logFile, 'utf8').trim();
      if (log !== '') console.log(`\ne2e: server log\n${log}`);
    }
    return code;
  } finally {
    await stopAndClean();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`e2e: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  },
);
