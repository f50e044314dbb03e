import type { FastifyInstance } from 'fastify';
import fastifyFormbody from '@fastify/formbody';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../platform/context';
import { registerLoginRoutes } from './login/login-routes';
import { registerRecovery } from './recovery/recovery-routes';
import { registerRegistration } from './registration/registration-routes';
import { registrationEnabled } from './registration/registration-setting';
import { createAuthenticator } from './sessions/authenticator';
import { registerSessionRoutes } from './sessions/session-routes';
import { registerSettingsFlow } from './settings/settings-routes';
import { createCodeStore } from './shared/verification-codes';
import { createCourier } from './shared/courier';
import { toKratosError } from './shared/flow-http';
import { createFlowThrottle, sweepEmailFlowState } from './shared/flow-throttle';
import { KratosError } from './shared/kratos-error';
import { registerVerification } from './verification/verification-routes';

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

const authModeSchema = z.object({
  /** self-hosted: the built-in identity service; hosted: an OpenID Connect provider (OPSDECK_OIDC_*). */
  mode: z.enum(['self-hosted', 'hosted']),
  provider_name: z.string().optional(),
  registration_enabled: z.boolean(),
});

/** `GET /mode`: how people sign in here, and whether registration is open. */
async function authMode(context: AppContext): Promise<z.infer<typeof authModeSchema>> {
  const oidc = context.config.oidc;
  return {
    mode: oidc === null ? ('self-hosted' as const) : ('hosted' as const),
    ...(oidc === null ? {} : { provider_name: oidc.providerName }),
    registration_enabled: await registrationEnabled(context.db.pool, oidc !== null),
  };
}

/**
 * The email-based flows: registration, verification and recovery (with the recovery links of invitations). They share
 * the courier and the code store; each keeps its own throttle counts.
 */
function registerEmailFlows(auth: FastifyInstance, context: AppContext): void {
  const pool = context.db.pool;
  const { secretKey } = context.config;
  // A flow must see a sign-out at once, so sessions are read from the database rather than the authenticator's cache.
  const authenticate = createAuthenticator(pool, { cacheTtlMs: 0 });
  const courier = createCourier(context.config, auth.log);
  const codes = createCodeStore(pool, secretKey);
  const verification = registerVerification(auth, {
    context,
    courier,
    codes,
    authenticate,
    throttle: createFlowThrottle(pool, secretKey, 'verification'),
  });
  registerRecovery(auth, { context, courier, codes, authenticate, throttle: createFlowThrottle(pool, secretKey, 'recovery') });
  registerRegistration(auth, { context, courier, codes, authenticate, throttle: createFlowThrottle(pool, secretKey, 'registration') }, verification);

  if (context.config.role !== 'api') {
    const timer = setInterval(() => {
      sweepEmailFlowState(pool).catch((error: unknown) => auth.log.warn({ err: error }, 'email flow sweep failed'));
    }, SWEEP_INTERVAL_MS);
    timer.unref();
    auth.addHook('onClose', async () => clearInterval(timer));
  }
}

/**
 * The identity service under /api/auth: Kratos's self-service flows, one folder each, and the session routes. Every
 * failure in this scope answers in Kratos's error shape.
 */
export async function registerSelfService(auth: FastifyInstance, context: AppContext): Promise<void> {
  await auth.register(fastifyFormbody);
  auth.setErrorHandler((error, request, reply) => {
    const kratos = toKratosError(error);
    if (kratos !== null) return reply.status(kratos.statusCode).send(kratos.toBody());
    request.log.error({ err: error }, 'unhandled error in the identity service');
    return reply.status(500).send(new KratosError(500, undefined, 'an internal server error occurred').toBody());
  });
  registerSettingsFlow(auth, context);
  registerEmailFlows(auth, context);
  registerLoginRoutes(auth, context);

  auth.withTypeProvider<ZodTypeProvider>().get(
    '/mode',
    {
      config: { permission: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'How people sign in here: the built-in identity service or an OpenID Connect provider, and whether registration is open',
        response: { 200: authModeSchema },
      },
    },
    async () => authMode(context),
  );

  registerSessionRoutes(auth, context);
}
