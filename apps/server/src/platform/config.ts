import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { ensurePrivateDir, PRIVATE_FILE_MODE, restrictMode } from './private-files';
import { chooseLogFormat, LOG_FORMATS, type LogFormat } from './logger-format';
import { serverPackageRoot } from './package-root';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type ServerRole = 'api' | 'worker' | 'all';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  secretKey: Buffer;
  logLevel: (typeof LOG_LEVELS)[number];
  logFormat: LogFormat;
  role: ServerRole;
  webDist: string;
  seedDemo: boolean;
  statementTimeoutMs: number;
  /** Properties with source 'local', read at start (a Java-style properties file). */
  propertiesFile: string;
  /** Behind a TLS-terminating proxy, X-Forwarded-* decide the protocol (Secure cookies, absolute links). */
  trustProxy: boolean;
  /** Folders that file and kubernetesFile scrapers may read, as real paths (OPSDECK_SCRAPE_ROOTS). */
  scrapeRoots: string[];
  /** Folders that file log backends may read, as real paths (OPSDECK_LOG_ROOTS). */
  logRoots: string[];
  /** Where people reach the console (OPSDECK_PUBLIC_URL), for links in notifications; null: the public.url property. */
  publicUrl: string | null;
}

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  OPSDECK_SECRET_KEY: z.string().optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  LOG_FORMAT: z.enum(LOG_FORMATS).optional(),
  OPSDECK_ROLE: z.enum(['api', 'worker', 'all']).default('all'),
  OPSDECK_WEB_DIST: z.string().optional(),
  OPSDECK_SEED_DEMO: z.enum(['true', 'false']).default('true'),
  OPSDECK_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).default(15000),
  OPSDECK_PROPERTIES_FILE: z.string().optional(),
  OPSDECK_TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  OPSDECK_SCRAPE_ROOTS: z.string().optional(),
  OPSDECK_LOG_ROOTS: z.string().optional(),
  OPSDECK_PUBLIC_URL: z.string().url().optional(),
});

/**
 * The key encrypts secrets at rest, so it must live outside the database: from the environment, or in a file in
 * DATA_DIR that is created once for an embedded install.
 */
function resolveSecretKey(raw: string | undefined, dataDir: string): Buffer {
  if (raw !== undefined && raw !== '') {
    const decoded = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
    if (decoded.length !== 32) throw new Error('OPSDECK_SECRET_KEY must be 32 bytes, as 64 hex characters or base64');
    return decoded;
  }
  ensurePrivateDir(dataDir);
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) restrictMode(file, PRIVATE_FILE_MODE);
  else writeFileSync(file, randomBytes(32).toString('hex'), { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
}

/**
 * Real paths, so a root reached through a symlink compares equal to the paths a scraper's files resolve to; a folder
 * that does not exist yet is kept as written and can be created later.
 */
function resolveRoots(raw: string | undefined, fallback: string): string[] {
  const listed = raw === undefined || raw.trim() === '' ? [fallback] : raw.split(':').filter((part) => part.trim() !== '');
  return listed.map((root) => {
    const absolute = path.resolve(root.trim());
    return existsSync(absolute) ? realpathSync(absolute) : absolute;
  });
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid configuration: ${issues}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(overrides.dataDir ?? e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    secretKey: overrides.secretKey ?? resolveSecretKey(e.OPSDECK_SECRET_KEY, dataDir),
    logLevel: e.LOG_LEVEL,
    logFormat: chooseLogFormat(e.LOG_FORMAT, process.stdout.isTTY === true),
    role: e.OPSDECK_ROLE,
    webDist: e.OPSDECK_WEB_DIST ?? path.resolve(serverPackageRoot(import.meta.url), '../web/dist'),
    seedDemo: e.OPSDECK_SEED_DEMO === 'true',
    statementTimeoutMs: e.OPSDECK_STATEMENT_TIMEOUT_MS,
    trustProxy: e.OPSDECK_TRUST_PROXY === 'true',
    propertiesFile: path.resolve(e.OPSDECK_PROPERTIES_FILE ?? path.join(dataDir, 'opsdeck.properties')),
    scrapeRoots: resolveRoots(e.OPSDECK_SCRAPE_ROOTS, path.join(dataDir, 'scrape')),
    logRoots: resolveRoots(e.OPSDECK_LOG_ROOTS, path.join(dataDir, 'logs')),
    publicUrl: e.OPSDECK_PUBLIC_URL ?? null,
    ...overrides,
  };
}
