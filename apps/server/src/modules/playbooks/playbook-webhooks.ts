import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { z } from 'zod';
import { parseDurationMs, type PlaybookWebhook, type PlaybookWebhookRequest } from '@opsdeck/shared';
import type { AppContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { errorResponses } from '../../platform/openapi';
import { SpecSecretError } from '../../platform/secret-fields';
import { openWebhook } from './playbook-secrets';
import { requestPlaybookRun } from './run-store';
import { parsePlaybookSpec } from './spec';

/**
 * Mission Control's playbook webhooks (`on.webhook`): a POST to /api/playbook/webhook/<path> that passes the
 * playbook's authentication (every scheme it names: basic, GitHub's signature, Svix's) starts a run, with the request
 * as `.request` in its templates. The route is public, so the authentication is the only gate: the spec must name one
 * (spec.ts), its secrets are sealed and only compared here, failures are answered alike and throttled per path, and the
 * run is recorded like any other, with no person as its author.
 */

/** The largest body a webhook takes: the request is kept with the run and read by its templates. */
export const WEBHOOK_BODY_BYTES = 256 * 1024;
/** Failed attempts on one path within a minute before the path answers 429 for the rest of that minute. */
const FAILURES_PER_MINUTE = 10;
const MINUTE_MS = 60_000;
/** Svix's own default: a signature older (or newer) than this is a replay. */
const DEFAULT_SVIX_TOLERANCE_MS = 5 * MINUTE_MS;
/** Credentials and signatures are checked here and never kept with the run. */
const KEPT_OUT_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-hub-signature',
  'x-hub-signature-256',
  'svix-signature',
  'webhook-signature',
]);

export const webhookErrors = {
  notFound: () => new AppError(404, 'OD_WEBHOOK_NOT_FOUND', 'No playbook listens on this webhook path', null, "Check the path against the playbook's on.webhook.path"),
  unauthorized: () =>
    new AppError(401, 'OD_WEBHOOK_UNAUTHORIZED', 'The webhook request did not pass the playbook\'s authentication', null, 'Send the credentials or signature the playbook\'s on.webhook.authentication names'),
  throttled: () => new AppError(429, 'OD_WEBHOOK_THROTTLED', 'Too many failed webhook requests on this path; try again in a minute', null, null),
  getNotRun: () =>
    new AppError(405, 'OD_WEBHOOK_METHOD', 'A webhook starts a run with POST only', null, 'Send the request with POST: a GET must not change anything, and it would go unaudited'),
};

interface WebhookPlaybook {
  id: string;
  webhook: PlaybookWebhook;
}

/** The live playbook whose `on.webhook.path` is `path`; paths are unique (spec-hooks.ts). */
export async function findWebhookPlaybook(pool: Pick<pg.Pool, 'query'>, path: string): Promise<WebhookPlaybook | null> {
  const found = await pool.query<{ id: string; spec: unknown }>(
    `select id, spec from playbooks where deleted_at is null and spec->'on'->'webhook'->>'path' = $1 order by created_at limit 1`,
    [path],
  );
  const row = found.rows[0];
  if (row === undefined) return null;
  let webhook: PlaybookWebhook | undefined;
  try {
    webhook = parsePlaybookSpec(row.spec).on?.webhook;
  } catch {
    // A stored spec that no longer validates (written before a rule) starts nothing until it is saved again.
    return null;
  }
  return webhook === undefined ? null : { id: row.id, webhook };
}

function sameSecret(given: string, expected: string): boolean {
  // Digests first, so the comparison takes as long whatever the lengths.
  return timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());
}

function header(request: FastifyRequest, name: string): string {
  const value = request.headers[name];
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}

function basicPasses(request: FastifyRequest, username: string, password: string): boolean {
  const match = /^Basic\s+(\S+)$/i.exec(header(request, 'authorization'));
  if (match === null) return false;
  const decoded = Buffer.from(match[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return false;
  // Both compared, always: which one was wrong is not told by the time taken.
  const userMatches = sameSecret(decoded.slice(0, colon), username);
  const passwordMatches = sameSecret(decoded.slice(colon + 1), password);
  return userMatches && passwordMatches;
}

function githubPasses(request: FastifyRequest, body: Buffer, token: string): boolean {
  const signature = header(request, 'x-hub-signature-256').replace(/^sha256=/, '');
  return signature !== '' && sameSecret(signature, createHmac('sha256', token).update(body).digest('hex'));
}

/** Standard Webhooks (Svix): `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed by the base64 after `whsec_`. */
function svixPasses(request: FastifyRequest, body: Buffer, secret: string, toleranceMs: number, now: number): boolean {
  const pick = (name: string): string => header(request, `svix-${name}`) || header(request, `webhook-${name}`);
  const id = pick('id');
  const timestamp = pick('timestamp');
  const signatures = pick('signature');
  if (id === '' || !/^\d+$/.test(timestamp) || signatures === '') return false;
  if (Math.abs(now - Number(timestamp) * 1000) > toleranceMs) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    return version === 'v1' && signature !== undefined && sameSecret(signature, expected);
  });
}

/** Every scheme the webhook names must pass. */
export function webhookAuthenticated(request: FastifyRequest, body: Buffer, webhook: PlaybookWebhook, now = Date.now()): boolean {
  const { basic, github, svix } = webhook.authentication;
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  if (basic !== undefined && !basicPasses(request, basic.username, text(basic.password))) return false;
  if (github !== undefined && !githubPasses(request, body, text(github.token))) return false;
  if (svix !== undefined) {
    const tolerance = svix.timestampTolerance === undefined ? DEFAULT_SVIX_TOLERANCE_MS : (parseDurationMs(svix.timestampTolerance) ?? DEFAULT_SVIX_TOLERANCE_MS);
    if (!svixPasses(request, body, text(svix.secret), tolerance, now)) return false;
  }
  return true;
}

/** What the run keeps of the request, as Mission Control's WebhookRequest. */
export function webhookRequestOf(request: FastifyRequest, body: Buffer): PlaybookWebhookRequest {
  const url = new URL(request.url, 'http://webhook.invalid');
  const headers = Object.fromEntries(
    Object.entries(request.headers)
      .filter(([name]) => !KEPT_OUT_HEADERS.has(name.toLowerCase()))
      .map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value ?? '')]),
  );
  const content = body.toString('utf8');
  const kept: PlaybookWebhookRequest = { method: request.method, url: `${url.pathname}${url.search}`, params: Object.fromEntries(url.searchParams), headers, content };
  if ((headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() === 'application/json') {
    try {
      kept.json = JSON.parse(content) as unknown;
    } catch {
      // A body that says it is JSON and is not stays text: templates still read it as .request.content.
    }
  }
  return kept;
}

/** Failed attempts per path in the current minute, in this process. */
class FailureThrottle {
  private readonly failures = new Map<string, { since: number; count: number }>();

  blocked(path: string, now: number): boolean {
    const entry = this.failures.get(path);
    return entry !== undefined && now - entry.since < MINUTE_MS && entry.count >= FAILURES_PER_MINUTE;
  }

  failed(path: string, now: number): void {
    const entry = this.failures.get(path);
    if (entry === undefined || now - entry.since >= MINUTE_MS) this.failures.set(path, { since: now, count: 1 });
    else entry.count += 1;
  }
}

export function registerPlaybookWebhookRoutes(app: FastifyInstance, context: AppContext): void {
  const throttle = new FailureThrottle();
  // A scope of its own: the raw body is what a signature covers, so no parser may reshape it first.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_BYTES }, (_request, body, done) => done(null, body));
    scope.post<{ Params: { path: string } }>(
      '/api/playbook/webhook/:path',
      {
        config: { permission: 'public' },
        bodyLimit: WEBHOOK_BODY_BYTES,
        schema: {
          params: z.object({ path: z.string() }),
          body: z.unknown().describe('Any body up to 256 KiB: JSON (sent as application/json, read as .request.json) or text (.request.content)'),
          response: { 201: z.object({ id: z.string(), message: z.literal('ok') }), ...errorResponses(401, 404, 413, 429) },
          tags: ['playbooks'],
          summary: "Start the playbook whose on.webhook.path this is, if the request passes the webhook's authentication",
          description:
            "Mission Control's playbook webhook. The playbook's on.webhook.authentication is required: HTTP Basic credentials, GitHub's X-Hub-Signature-256, or Svix signatures; " +
            'every scheme named must pass. The run keeps the request (method, url, query params, headers less credentials, body up to 256 KiB) as .request for its templates. ' +
            'Ten failed requests on a path within a minute close it for the rest of that minute.',
        },
      },
      async (request, reply) => {
        const now = Date.now();
        const path = request.params.path;
        if (throttle.blocked(path, now)) throw webhookErrors.throttled();
        const found = await findWebhookPlaybook(context.db.pool, path);
        if (found === null) throw webhookErrors.notFound();
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        let webhook: PlaybookWebhook;
        try {
          webhook = openWebhook(context.config.secretKey, found.id, found.webhook);
        } catch (error) {
          if (error instanceof SpecSecretError) request.log.warn({ playbook: found.id, path }, `a webhook secret cannot be opened: ${error.message}`);
          throw error instanceof SpecSecretError ? webhookErrors.unauthorized() : error;
        }
        if (!webhookAuthenticated(request, body, webhook, now)) {
          throttle.failed(path, now);
          throw webhookErrors.unauthorized();
        }
        const { runId } = await requestPlaybookRun(context.db.pool, {
          playbookId: found.id,
          target: null,
          params: {},
          createdBy: null,
          bus: context.bus,
          secretKey: context.config.secretKey,
          triggered: true,
          request: webhookRequestOf(request, body),
        });
        return reply.status(201).send({ id: runId, message: 'ok' });
      },
    );
    scope.get(
      '/api/playbook/webhook/:path',
      { config: { permission: 'public' }, schema: { params: z.object({ path: z.string() }), response: errorResponses(405), tags: ['playbooks'], summary: 'Refused: a webhook starts a run with POST' } },
      () => {
        throw webhookErrors.getNotRun();
      },
    );
  });
}
