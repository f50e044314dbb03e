import type * as Mongo from 'mongodb';
import type * as Redis from 'redis';
import type * as Ssh from 'ssh2';

/**
 * The clients of systems a check, probe, scraper, playbook action or mail may talk to, loaded at their first use, not
 * when the server starts (ADR 0079). Together they weigh well over 100 MB of memory (the Kubernetes client alone about
 * 80 MB, the MongoDB driver 17 MB of buffer at load), and most servers and agents use one or two of them, or none.
 */

// The two CommonJS packages are typed as their default export, which is what Node's import gives of them.
export async function mysqlLibrary() {
  return (await import('mysql2/promise')).default;
}

export async function mongoLibrary(): Promise<typeof Mongo> {
  return import('mongodb');
}

export async function redisLibrary(): Promise<typeof Redis> {
  return import('redis');
}

export async function sshLibrary(): Promise<typeof Ssh> {
  return (await import('ssh2')).default;
}

export async function mailLibrary() {
  return (await import('nodemailer')).default;
}
