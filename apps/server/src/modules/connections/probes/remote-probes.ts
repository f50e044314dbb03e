import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mailLibrary, sshLibrary } from '../../../platform/client-libraries';
import { MAX_TIMEOUT_MS } from './bounded-http';

export interface SftpTarget {
  host: string;
  port: number;
  username: string | null;
  password: string | null;
  privateKey: string | null;
}

/** Logs in over SSH, opens the SFTP subsystem and lists the home directory. */
export async function sftpProbe(target: SftpTarget, timeoutMs = MAX_TIMEOUT_MS): Promise<number> {
  const limit = Math.min(timeoutMs, MAX_TIMEOUT_MS);
  const { Client } = await sshLibrary();
  return new Promise((resolve, reject) => {
    const client = new Client();
    const timer = setTimeout(() => {
      client.end();
      reject(new Error(`SFTP did not answer within ${limit}ms`));
    }, limit);
    const fail = (error: Error): void => {
      clearTimeout(timer);
      client.end();
      reject(error);
    };
    client.on('error', fail);
    client.on('ready', () => {
      client.sftp((error, sftp) => {
        if (error) return fail(error);
        sftp.readdir('.', (listError, entries) => {
          clearTimeout(timer);
          client.end();
          if (listError) reject(listError);
          else resolve(entries.length);
        });
      });
    });
    client.connect({
      host: target.host,
      port: target.port,
      readyTimeout: limit,
      ...(target.username === null ? {} : { username: target.username }),
      ...(target.password === null ? {} : { password: target.password }),
      ...(target.privateKey === null ? {} : { privateKey: target.privateKey }),
    });
  });
}

export interface SmtpTarget {
  host: string;
  port: number;
  encryptionMethod: string;
  authMethod: string;
  username: string | null;
  password: string | null;
  insecureTls: boolean;
}

/** EHLO, STARTTLS when asked, and AUTH when credentials are given; no mail is sent. */
export async function smtpProbe(target: SmtpTarget, timeoutMs = MAX_TIMEOUT_MS): Promise<void> {
  const limit = Math.min(timeoutMs, MAX_TIMEOUT_MS);
  const auth =
    target.authMethod !== 'None' && target.username !== null && target.username !== ''
      ? { user: target.username, pass: target.password ?? '' }
      : undefined;
  const transport = (await mailLibrary()).createTransport({
    host: target.host,
    port: target.port,
    secure: target.encryptionMethod === 'ImplicitTLS' || (target.encryptionMethod === 'Auto' && target.port === 465),
    requireTLS: target.encryptionMethod === 'ExplicitTLS',
    ignoreTLS: target.encryptionMethod === 'None',
    connectionTimeout: limit,
    greetingTimeout: limit,
    socketTimeout: limit,
    tls: { rejectUnauthorized: !target.insecureTls },
    ...(auth === undefined ? {} : { auth }),
  });
  try {
    await transport.verify();
  } finally {
    transport.close();
  }
}

export interface GitTarget {
  url: string;
  ref: string;
  username: string | null;
  password: string | null;
  sshKey: string | null;
}

const ASKPASS = `#!/bin/sh
case "$1" in
  Username*) printf '%s\\n' "$OPSDECK_GIT_USERNAME" ;;
  *) printf '%s\\n' "$OPSDECK_GIT_PASSWORD" ;;
esac
`;

/**
 * `git ls-remote` with a deadline. Credentials reach git through an askpass script reading the environment (or a
 * key file for SSH) in a private temporary folder, so they never appear in a command line or a log.
 */
export async function gitProbe(target: GitTarget, timeoutMs = MAX_TIMEOUT_MS): Promise<string> {
  const limit = Math.min(timeoutMs, MAX_TIMEOUT_MS);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-git-'));
  try {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: dir, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
    if (target.username !== null || target.password !== null) {
      const askpass = path.join(dir, 'askpass.sh');
      writeFileSync(askpass, ASKPASS, { mode: 0o700 });
      env.GIT_ASKPASS = askpass;
      env.OPSDECK_GIT_USERNAME = target.username ?? '';
      env.OPSDECK_GIT_PASSWORD = target.password ?? '';
    }
    if (target.sshKey !== null) {
      const keyFile = path.join(dir, 'id_key');
      writeFileSync(keyFile, target.sshKey.endsWith('\n') ? target.sshKey : `${target.sshKey}\n`, { mode: 0o600 });
      env.GIT_SSH_COMMAND = `ssh -i ${keyFile} -o BatchMode=yes -o StrictHostKeyChecking=accept-new -o UserKnownHostsFile=${path.join(dir, 'known_hosts')}`;
    } else {
      env.GIT_SSH_COMMAND = 'ssh -o BatchMode=yes';
    }
    const output = await runBounded('git', ['ls-remote', '--', target.url, target.ref], env, limit);
    const lines = output.trim().split('\n').filter((line) => line !== '');
    if (lines.length === 0) throw new Error(`Ref '${target.ref}' not found in ${target.url}`);
    return lines[0]?.split('\t')[0] ?? '';
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function runBounded(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const cap = 64 * 1024;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} did not finish within ${timeoutMs}ms`));
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length < cap) stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < cap) stderr += chunk.toString('utf8');
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(stderr.trim() === '' ? `${command} exited with code ${code ?? 'null'}` : stderr.trim().slice(0, 2000)));
    });
  });
}
