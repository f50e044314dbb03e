import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { ensurePrivateDir, PRIVATE_FILE_MODE, restrictMode } from './private-files';
import { chooseLogFormat, LOG_FORMATS, type LogFormat } from './logger-format';
import { serverPackageRoot } from './package-root';

/** Where a demo listens unless HOST says otherwise. */
export const DEMO_HOST = '127.0.0.1';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type ServerRole = 'api' | 'worker' | 'all';

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Space-separated scopes asked for; openid and email are always included. */
  scopes: string;
  /** The ID-token or userinfo claim listing the person's organizations (strings, or objects with id and name). */
  organizationsClaim: string;
  /** The claim listing the person's roles; values that are not Opsdeck roles are ignored. */
  rolesClaim: string;
  /** What the sign-in button says: 'Sign in with {name}'. */
  providerName: string;
}

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
  /**
   * HOST was not set and the demo data is seeded, so the server listens on loopback only: the demo's passwords are
   * printed in the README and on the console, so a demo must not answer other machines unless someone says so.
   */
  hostIsDemoDefault: boolean;
  statementTimeoutMs: number;
  /** Properties with source 'local', read at start (a Java-style properties file). */
  propertiesFile: string;
  /** Behind a TLS-terminating proxy, X-Forwarded-* decide the protocol (Secure cookies, absolute links). */
  trustProxy: boolean;
  /** Folders that file and kubernetesFile scrapers may read, as real paths (OPSDECK_SCRAPE_ROOTS). */
  scrapeRoots: string[];
  /** Folders that file log backends may read, as real paths (OPSDECK_LOG_ROOTS). */
  logRoots: string[];
  /** Folders a GitOps folder (property security.gitops.folder) may lie in, as real paths (OPSDECK_GITOPS_ROOTS; ADR 0074). */
  gitopsRoots: string[];
  /** Where people reach the console (OPSDECK_PUBLIC_URL), for links in notifications; null: the public.url property. */
  publicUrl: string | null;
  /** The identity courier's SMTP server (OPSDECK_SMTP_URL, smtp:// or smtps:// with credentials); null: the server log. */
  smtpUrl: string | null;
  /** The sender of identity mail (OPSDECK_SMTP_FROM). */
  smtpFrom: string;
  /** Origins (scheme://host[:port]) besides the console's own that self-service flows may return to (OPSDECK_RETURN_TO_ALLOWLIST). */
  returnToAllowlist: string[];
  /** Hosted mode: sign-in through an OpenID Connect provider (OPSDECK_OIDC_*); null: the built-in identity service. */
  oidc: OidcConfig | null;
  /** Who may read /metrics: a scraper sending `Authorization: Bearer <token>` (OPSDECK_METRICS_TOKEN); null: nobody by token. */
  metricsToken: string | null;
  /** A second listener that serves only /metrics (OPSDECK_METRICS_PORT); null: none. */
  metricsPort: number | null;
  /** Where that listener binds (OPSDECK_METRICS_HOST): loopback unless a scraper elsewhere must reach it. */
  metricsHost: string;
  /**
   * How long a worker holds a claimed check, scraper or topology before another may take it over (OPSDECK_LEASE_SECONDS),
   * renewed while the run lasts: the time a crashed worker's work waits before another worker picks it up.
   */
  leaseSeconds: number;
  /**
   * Checks a worker runs at once: of the network types (OPSDECK_NETWORK_CHECK_CONCURRENCY, default 200) and of the
   * others, which start a process or hold a database connection (OPSDECK_CHECK_CONCURRENCY, default 8). ADR 0078.
   */
  checkConcurrency: { network: number; bounded: number };
  /**
   * How often a worker on the embedded database reads its tables' activity and vacuums those past PostgreSQL's
   * autovacuum thresholds (OPSDECK_EMBEDDED_VACUUM_MS, default 60000; ADR 0080). Unused on PostgreSQL.
   */
  embeddedVacuumMs: number;
  /**
   * The event-queue lease of the notification consumer (OPSDECK_EVENT_LEASE_SECONDS): how long a claimed event stays
   * invisible to the other workers. Null: the consumer's own default (5 minutes).
   */
  eventLeaseSeconds: number | null;
}

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  // Unset: loopback while the demo data (public passwords) is seeded, every interface otherwise (hostFor).
  HOST: z.string().min(1).optional(),
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
  OPSDECK_GITOPS_ROOTS: z.string().optional(),
  OPSDECK_PUBLIC_URL: z.string().url().optional(),
  OPSDECK_SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
  OPSDECK_SMTP_FROM: z.string().min(3).default('Opsdeck <no-reply@opsdeck.local>'),
  OPSDECK_RETURN_TO_ALLOWLIST: z.string().optional(),
  OPSDECK_OIDC_ISSUER: z.string().url().optional(),
  OPSDECK_OIDC_CLIENT_ID: z.string().min(1).optional(),
  OPSDECK_OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OPSDECK_OIDC_SCOPES: z.string().default('openid email profile'),
  OPSDECK_OIDC_ORGANIZATIONS_CLAIM: z.string().min(1).default('organizations'),
  OPSDECK_OIDC_ROLES_CLAIM: z.string().min(1).default('roles'),
  OPSDECK_OIDC_PROVIDER_NAME: z.string().min(1).default('your identity provider'),
  // Long enough that guessing it is hopeless; a scraper keeps it in a file, so its length costs nothing.
  OPSDECK_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  OPSDECK_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  OPSDECK_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  // Below a few seconds a busy database's renewal could come late and hand a live run to a second worker.
  OPSDECK_LEASE_SECONDS: z.coerce.number().int().min(2).max(86_400).default(120),
  OPSDECK_EVENT_LEASE_SECONDS: z.coerce.number().int().min(2).max(86_400).optional(),
  OPSDECK_NETWORK_CHECK_CONCURRENCY: z.coerce.number().int().min(1).max(5000).default(200),
  OPSDECK_CHECK_CONCURRENCY: z.coerce.number().int().min(1).max(500).default(8),
  OPSDECK_EMBEDDED_VACUUM_MS: z.coerce.number().int().min(100).max(86_400_000).default(60_000),
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

/** Each listed entry reduced to its origin, so a path or trailing slash in the setting cannot widen or break a match. */
function parseAllowlist(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const url = new URL(entry);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`OPSDECK_RETURN_TO_ALLOWLIST: ${entry} is not an http(s) origin`);
      return url.origin;
    });
}

function oidcConfig(e: z.infer<typeof envSchema>): OidcConfig | null {
  const given = [e.OPSDECK_OIDC_ISSUER, e.OPSDECK_OIDC_CLIENT_ID, e.OPSDECK_OIDC_CLIENT_SECRET].filter((value) => value !== undefined);
  if (given.length === 0) return null;
  if (e.OPSDECK_OIDC_ISSUER === undefined || e.OPSDECK_OIDC_CLIENT_ID === undefined || e.OPSDECK_OIDC_CLIENT_SECRET === undefined) {
    throw new Error('Invalid configuration: OPSDECK_OIDC_ISSUER, OPSDECK_OIDC_CLIENT_ID and OPSDECK_OIDC_CLIENT_SECRET go together');
  }
  return {
    issuer: e.OPSDECK_OIDC_ISSUER,
    clientId: e.OPSDECK_OIDC_CLIENT_ID,
    clientSecret: e.OPSDECK_OIDC_CLIENT_SECRET,
    scopes: e.OPSDECK_OIDC_SCOPES,
    organizationsClaim: e.OPSDECK_OIDC_ORGANIZATIONS_CLAIM,
    rolesClaim: e.OPSDECK_OIDC_ROLES_CLAIM,
    providerName: e.OPSDECK_OIDC_PROVIDER_NAME,
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid configuration: ${issues}`);
  }
  const e = parsed.data;
  if (e.OPSDECK_METRICS_PORT !== undefined && e.OPSDECK_METRICS_PORT !== 0 && e.OPSDECK_METRICS_PORT === e.PORT) {
    throw new Error('Invalid configuration: OPSDECK_METRICS_PORT must differ from PORT (the metrics listener is a second one)');
  }
  // Said, not ignored: PostgreSQL's own autovacuum does this work there (ADR 0080).
  const databaseUrl = 'databaseUrl' in overrides ? overrides.databaseUrl : e.DATABASE_URL;
  if (env.OPSDECK_EMBEDDED_VACUUM_MS !== undefined && databaseUrl !== undefined) {
    throw new Error('Invalid configuration: OPSDECK_EMBEDDED_VACUUM_MS applies to the embedded database only; with DATABASE_URL, PostgreSQL\'s autovacuum does that work');
  }
  const dataDir = path.resolve(overrides.dataDir ?? e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST ?? (e.OPSDECK_SEED_DEMO === 'true' ? DEMO_HOST : '0.0.0.0'),
    hostIsDemoDefault: e.HOST === undefined && e.OPSDECK_SEED_DEMO === 'true',
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
    gitopsRoots: resolveRoots(e.OPSDECK_GITOPS_ROOTS, path.join(dataDir, 'gitops')),
    publicUrl: e.OPSDECK_PUBLIC_URL ?? null,
    smtpUrl: e.OPSDECK_SMTP_URL ?? null,
    smtpFrom: e.OPSDECK_SMTP_FROM,
    returnToAllowlist: parseAllowlist(e.OPSDECK_RETURN_TO_ALLOWLIST),
    oidc: oidcConfig(e),
    metricsToken: e.OPSDECK_METRICS_TOKEN ?? null,
    metricsPort: e.OPSDECK_METRICS_PORT ?? null,
    metricsHost: e.OPSDECK_METRICS_HOST,
    leaseSeconds: e.OPSDECK_LEASE_SECONDS,
    eventLeaseSeconds: e.OPSDECK_EVENT_LEASE_SECONDS ?? null,
    checkConcurrency: { network: e.OPSDECK_NETWORK_CHECK_CONCURRENCY, bounded: e.OPSDECK_CHECK_CONCURRENCY },
    embeddedVacuumMs: e.OPSDECK_EMBEDDED_VACUUM_MS,
    ...overrides,
  };
}
