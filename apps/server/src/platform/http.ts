import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import { z } from 'zod';
import { serializerCompiler, validatorCompiler, hasZodFastifySchemaValidationErrors, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { can } from '@opsdeck/shared';
import { AppError, errors, fromDataException, fromGuardViolation, fromUniqueViolation } from './errors';
import { limitJsonDepth } from './json-depth';
import { loggerOptions } from './logger';
import { errorResponses, openApiTransform } from './openapi';
import type { AppContext } from './context';
import type { Principal, RoutePermission } from './principal';

declare module 'fastify' {
  interface FastifyContextConfig {
    permission?: RoutePermission;
    /** The answer is the same for every caller (a published schema): its own cache-control is kept. */
    cacheable?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export type Authenticator = (request: FastifyRequest) => Promise<Principal | null>;

export interface DomainPlugin {
  name: string;
  register(app: FastifyInstance, context: AppContext): Promise<void> | void;
  /** Hooks for every route of the server, set on the root instance before any route is registered (kept sync). */
  registerGlobal?(app: FastifyInstance, context: AppContext): void;
}

export interface ServerOptions {
  context: AppContext;
  authenticate: Authenticator;
  /** Why a request looks forged (the CSRF rules live with the session cookie in auth/), or null to let it through. */
  forgedRequestReason: (request: FastifyRequest) => string | null;
  plugins: DomainPlugin[];
  logger?: boolean;
  /** Where log lines go instead of stdout: the tests that prove no secret is ever logged read them. */
  logStream?: { write(line: string): void };
}

/** Every registered route, with the permission it declared, for the route-walking test and the docs. */
export interface RouteRecord {
  method: string;
  url: string;
  permission: RoutePermission | undefined;
}

/**
 * Sent with every answer. The built web app loads only its own scripts (no inline ones); Radix and the toaster inject
 * <style> elements, hence 'unsafe-inline' for styles alone. Images are the app's own or data: URLs.
 */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

function isApiPath(url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  return pathname === '/api' || pathname.startsWith('/api/');
}

function describe(permission: RoutePermission): string {
  return typeof permission === 'string' ? permission : `${permission.action} ${permission.resource}`;
}

export async function buildServer(options: ServerOptions): Promise<{ app: FastifyInstance; routes: RouteRecord[] }> {
  const { context } = options;
  const app = Fastify({
    logger:
      options.logger === false ? false : { ...loggerOptions(context.config), ...(options.logStream === undefined ? {} : { stream: options.logStream }) },
    bodyLimit: 5 * 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 8192 },
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    trustProxy: context.config.trustProxy,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  limitJsonDepth(app);

  const routes: RouteRecord[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' && route.url !== '/healthz') continue;
      routes.push({ method, url: route.url, permission: route.config?.permission });
    }
  });

  await app.register(fastifyCookie);

  // Request metrics (platform/metrics.ts): labelled by the matched route's pattern, never the raw URL, so ids and
  // query strings cannot multiply the series; a request no route matched counts under one fixed label.
  app.addHook('onResponse', async (request, reply) => {
    context.metrics.observeRequest(request.method, request.is404 ? undefined : request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
  });

  // Hooks a plugin sets on every route, whichever plugin owns it (the audit trail of modules/audit, #19): on the root
  // instance, before any route exists.
  for (const plugin of options.plugins) plugin.registerGlobal?.(app, context);

  // Before the body is parsed, so a forged form post is refused without reaching any content-type parser.
  app.addHook('onRequest', async (request) => {
    const reason = options.forgedRequestReason(request);
    if (reason !== null) throw errors.crossSiteRequest(reason);
  });

  // API answers hold one person's data and must never be replayed from a cache (a shared one, or the browser's after
  // sign-out), unless the route says its answer is the same for everybody; the web app's files set their own caching,
  // and everything else defaults to no-store.
  app.addHook('onSend', async (request, reply) => {
    reply.headers(SECURITY_HEADERS);
    const keepsCaching = request.routeOptions.config.cacheable === true && reply.statusCode < 300 && reply.hasHeader('cache-control');
    if ((isApiPath(request.url) && !keepsCaching) || !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Opsdeck API', version: context.version, description: 'Operations and incident-management console' },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'opsdeck_session' },
          // Personal API tokens (odt_…, modules/api-tokens) and session tokens sent as `Authorization: Bearer`.
          bearer: { type: 'http', scheme: 'bearer', description: 'A personal API token (odt_…) created on the profile page' },
        },
      },
    },
    transform: openApiTransform,
  });

  app.decorateRequest('principal', null);

  // Deny by default: a route that forgot to declare its permission answers 403 to everybody rather than leaking data.
  // It runs before body validation so that an anonymous caller learns nothing about a route's input shape.
  app.addHook('preValidation', async (request) => {
    if (request.is404) return;
    const permission = request.routeOptions.config.permission;
    if (permission === 'public' || permission === 'agent') return;
    request.principal = await options.authenticate(request);
    if (permission === undefined) throw errors.forbidden('call an undeclared route');
    if (request.principal === null) throw errors.unauthenticated();
    if (permission === 'authenticated') return;
    if (!can(request.principal.roles, permission.resource, permission.action)) throw errors.forbidden(describe(permission));
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send(error.toBody());
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((issue) => `${issue.instancePath || '/'} ${issue.message ?? ''}`.trim()).join('; ');
      return reply.status(400).send(errors.validation(details).toBody());
    }
    const status = typeof (error as { statusCode?: unknown }).statusCode === 'number' ? (error as { statusCode: number }).statusCode : 500;
    if (status >= 400 && status < 500) {
      const code = (error as { code?: unknown }).code;
      const message = error instanceof Error ? error.message : 'Bad request';
      return reply.status(status).send(new AppError(status, typeof code === 'string' ? code : `OD${status}`, message).toBody());
    }
    const guard = fromGuardViolation(error) ?? fromUniqueViolation(error);
    if (guard !== null) return reply.status(guard.statusCode).send(guard.toBody());
    const rejectedValue = fromDataException(error);
    if (rejectedValue !== null) {
      request.log.warn({ code: rejectedValue.code }, 'database rejected a value from the request');
      return reply.status(400).send(rejectedValue.toBody());
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(errors.internal().toBody());
  });

  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    '/healthz',
    {
      config: { permission: 'public' },
      schema: {
        tags: ['platform'],
        summary: 'Liveness: the server answers and its database runs a query',
        response: { 200: z.object({ status: z.literal('ok') }), ...errorResponses(500, 503) },
      },
    },
    async () => {
      await context.db.pool.query('select 1');
      return { status: 'ok' as const };
    },
  );
  typed.get(
    '/api/version',
    { config: { permission: 'public' }, schema: { tags: ['platform'], summary: 'The server version', response: { 200: z.object({ version: z.string() }) } } },
    async () => ({ version: context.version }),
  );
  typed.get(
    '/api/openapi.json',
    {
      config: { permission: 'public' },
      schema: {
        tags: ['platform'],
        summary: 'This API as an OpenAPI 3 document',
        response: { 200: z.record(z.string(), z.unknown()).describe('OpenAPI 3 document') },
      },
    },
    async () => ({ ...app.swagger() }),
  );

  for (const plugin of options.plugins) {
    await app.register(
      async (scoped) => {
        await plugin.register(scoped, context);
      },
      { name: plugin.name },
    );
  }

  await registerWebApp(app, context.config.webDist);
  return { app, routes };
}

/**
 * Hashed assets never change. The page itself is no-store, which keeps a signed-in screen out of the back-forward
 * cache: Back after sign-out loads the app again instead of showing the previous user's data.
 */
function webCaching(relative: string): string {
  if (relative.startsWith('assets/')) return 'public, max-age=31536000, immutable';
  return relative === 'index.html' ? 'no-store' : 'no-cache';
}

async function registerWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const hasWeb = existsSync(path.join(webDist, 'index.html'));
  // The handler below decides the caching per file; left on, the plugin would replace it with 'public, max-age=0'.
  // The build writes .br and .gz copies beside the text files (vite.config.ts); preCompressed picks the one the
  // request's Accept-Encoding prefers and falls back to the plain file.
  if (hasWeb) await app.register(fastifyStatic, { root: webDist, serve: false, cacheControl: false, preCompressed: true });
  app.setNotFoundHandler({ preHandler: undefined }, async (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (url.startsWith('/api/') || request.method !== 'GET' || !hasWeb) {
      return reply.status(404).send(errors.routeNotFound(request.method, url).toBody());
    }
    let relative: string;
    try {
      relative = decodeURIComponent(url).replace(/^\/+/, '');
    } catch {
      return reply.status(400).send(errors.badRequest('The path is not valid URL encoding').toBody());
    }
    const candidate = path.resolve(webDist, relative);
    // The body depends on Accept-Encoding, so a shared cache must not hand a brotli copy to a client without it.
    reply.header('vary', 'accept-encoding');
    if (candidate.startsWith(webDist + path.sep) && existsSync(candidate) && statSync(candidate).isFile()) {
      return reply.header('cache-control', webCaching(relative)).sendFile(relative);
    }
    // Client-side routing: every other page path is the single-page app.
    return reply.header('cache-control', webCaching('index.html')).sendFile('index.html');
  });
}
