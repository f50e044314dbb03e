import type { DomainPlugin } from '../platform/http';
import { LOGIN_FAILURE_WINDOW_MS } from './login/password-login';
import { registerHostedMode } from './oidc/oidc-plugin';
import { registerSelfService } from './self-service';
import { registerKubeconfigRoutes } from './sessions/kubeconfig';
import { sweepAuthState } from './sessions/sessions';

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

export const authPlugin: DomainPlugin = {
  name: 'auth',
  async register(app, context) {
    const pool = context.db.pool;
    // First, so that in hosted mode its hooks also close the built-in flows registered below.
    await registerHostedMode(app, context);
    await app.register(async (auth) => registerSelfService(auth, context), { prefix: '/api/auth' });

    registerKubeconfigRoutes(app, context);

    if (context.config.role !== 'api') {
      const timer = setInterval(() => {
        sweepAuthState(pool, LOGIN_FAILURE_WINDOW_MS).catch((error: unknown) => app.log.warn({ err: error }, 'auth sweep failed'));
      }, SWEEP_INTERVAL_MS);
      timer.unref();
      app.addHook('onClose', async () => clearInterval(timer));
    }
  },
};
