import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { demoInboxSchema } from '@opsdeck/shared';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import type { DomainPlugin } from '../../platform/http';
import { errorResponses } from '../../platform/openapi';
import { clearInbox, DEMO_INBOX_KEEP, DEMO_INBOX_MAX_BYTES, listInbox, receiveInboxMessage } from './demo-inbox-store';
import { startDemoSmtp, type DemoSmtp } from './demo-smtp';

/** Where the demo's webhook connections post; the last segment names the channel. */
export const DEMO_INBOX_HOOKS_PATH = '/api/demo-inbox/hooks';
/** Marks the demo's connections the inbox keeps pointed at itself across restarts (a new port, a new mail port). */
export const DEMO_INBOX_SOURCE = 'demo-inbox';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

const notHere = (): AppError =>
  new AppError(404, 'OD_DEMO_INBOX_OFF', 'The demo inbox is off on this server', null, 'It receives only while the demo data is seeded (OPSDECK_SEED_DEMO=true)');

function bodyText(request: FastifyRequest): string {
  const body = request.body;
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  return typeof body === 'string' ? body : '';
}

/** Points the demo's webhook connections at this run's address: the port can differ from the one the seed wrote. */
async function retargetDemoWebhooks(context: AppContext, webBase: string): Promise<void> {
  await context.db.pool.query(
    `update connections set url = $1 || substring(url from position('${DEMO_INBOX_HOOKS_PATH}/' in url) + ${DEMO_INBOX_HOOKS_PATH.length})
      where source = $2 and deleted_at is null and type <> 'email'
        and url ~ '^http://127\\.0\\.0\\.1:[0-9]+/api/demo-inbox/hooks/' and url not like $1 || '/%'`,
    [`${webBase}${DEMO_INBOX_HOOKS_PATH}`, DEMO_INBOX_SOURCE],
  );
}

/** Points the demo's mail connection at this run's mail server, whose port is new at every start. */
async function retargetDemoMail(context: AppContext, smtp: DemoSmtp): Promise<void> {
  await context.db.pool.query(
    `update connections set url = $1 where source = $2 and deleted_at is null and type = 'email' and url ~ '^127\\.0\\.0\\.1:[0-9]+$' and url <> $1`,
    [`127.0.0.1:${smtp.port}`, DEMO_INBOX_SOURCE],
  );
}

function registerLifecycle(app: FastifyInstance, context: AppContext, state: { smtp: DemoSmtp | null; webBase: string | null }): void {
  // The process that delivers (a worker) runs the mail server, before its schedulers start; an api-only process only
  // receives webhooks.
  if (context.config.role !== 'api') {
    app.addHook('onReady', async () => {
      state.smtp = await startDemoSmtp(
        (message) => receiveInboxMessage(context.db.pool, message),
        (error) => app.log.warn({ err: error }, 'demo inbox mail server'),
      );
      await retargetDemoMail(context, state.smtp);
    });
  }
  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (address === null || typeof address === 'string') return;
    state.webBase = `http://127.0.0.1:${address.port}`;
    await retargetDemoWebhooks(context, state.webBase);
  });
  app.addHook('preClose', async () => {
    await state.smtp?.close();
    state.smtp = null;
  });
}

/**
 * The demo inbox (ADR 0085): the demo's webhook and mail connections deliver here, and Settings › Notifications ›
 * Demo inbox shows what arrived. The receiving webhook is public to the session guard, as a provider's would be, but
 * answers only this machine (the server's own deliveries), and only while the demo data is seeded.
 */
export const demoInboxPlugin: DomainPlugin = {
  name: 'demo-inbox',
  register(scoped, context) {
    const enabled = context.config.seedDemo;
    const state: { smtp: DemoSmtp | null; webBase: string | null } = { smtp: null, webBase: null };
    if (enabled) registerLifecycle(scoped, context, state);
    const app = scoped.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/api/demo-inbox',
      {
        config: { permission: { resource: 'notifications', action: 'read' } },
        schema: {
          tags: ['notifications'],
          summary: "What the demo's connections delivered, newest first",
          querystring: z.object({ limit: z.coerce.number().int().min(1).max(DEMO_INBOX_KEEP).default(100) }),
          response: { 200: demoInboxSchema },
        },
      },
      async (request) => ({
        enabled,
        smtp: state.smtp === null ? null : `127.0.0.1:${state.smtp.port}`,
        webhook: state.webBase === null ? null : `${state.webBase}${DEMO_INBOX_HOOKS_PATH}/{channel}`,
        keep: DEMO_INBOX_KEEP,
        messages: enabled ? await listInbox(context.db.pool, request.query.limit) : [],
      }),
    );

    app.delete(
      '/api/demo-inbox',
      {
        config: { permission: { resource: 'notifications', action: 'write' } },
        schema: { tags: ['notifications'], summary: 'Empty the demo inbox', response: { 200: z.object({ deleted: z.number() }), ...errorResponses(404) } },
      },
      async () => {
        if (!enabled) throw notHere();
        return { deleted: await clearInbox(context.db.pool) };
      },
    );

    // A scope of its own: the body is kept as sent, whatever its type, rather than parsed.
    void scoped.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: DEMO_INBOX_MAX_BYTES }, (_request, body, done) => done(null, body));
      scope.withTypeProvider<ZodTypeProvider>().post(
        `${DEMO_INBOX_HOOKS_PATH}/:channel`,
        {
          config: { permission: 'public' },
          bodyLimit: DEMO_INBOX_MAX_BYTES,
          schema: {
            tags: ['notifications'],
            summary: "Receives a webhook of the demo's connections into the demo inbox (this machine only)",
            params: z.object({ channel: z.string().min(1).max(200) }),
            body: z.unknown(),
            response: { 204: z.null(), ...errorResponses(404, 413) },
          },
        },
        async (request, reply) => {
          // Not found rather than forbidden: a caller from elsewhere learns nothing of the inbox.
          if (!enabled || !LOOPBACK.has(request.socket.remoteAddress ?? '')) throw notHere();
          const contentType = request.headers['content-type'] ?? null;
          await receiveInboxMessage(context.db.pool, {
            kind: 'webhook',
            channel: request.params.channel,
            sender: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
            recipients: [],
            subject: null,
            contentType,
            body: bodyText(request),
          });
          return reply.status(204).send(null);
        },
      );
    });
  },
};
