import type { DomainPlugin } from '../../platform/http';
import { sealStoredPlaybookSecrets } from './playbook-secrets';
import { registerPlaybookSchemaRoute, registerPlaybookSpecHooks } from './spec-hooks';
import { registerPlaybookRoutes } from './playbook-routes';
import { startPlaybookWorkers } from './playbook-worker';

/**
 * Playbooks (issue #14): the spec rules on every write of `playbooks` (exec actions need the execute permission), the
 * spec's JSON Schema, the run API (`/api/playbook/…`), and outside the api role the workers that run them, after
 * plaintext secrets left in stored specs are sealed (playbook-secrets.ts).
 */
export const playbooksPlugin: DomainPlugin = {
  name: 'playbooks',
  register(scoped, context) {
    registerPlaybookSpecHooks(context);
    registerPlaybookSchemaRoute(scoped);
    registerPlaybookRoutes(scoped, context);
    if (context.config.role === 'api') return;
    scoped.addHook('onReady', async () => {
      // A failure is logged and the workers start anyway: runs open plaintext as they did before it was sealed.
      await sealStoredPlaybookSecrets(context.db.pool, context.config.secretKey).then(
        (report) => {
          if (report.playbooks + report.runs > 0) scoped.log.info({ playbooks: report.playbooks, runs: report.runs }, 'sealed plaintext secrets in stored playbook specs');
          for (const problem of report.problems) scoped.log.warn(problem, 'a stored playbook spec holds a secret that cannot be sealed; edit the playbook');
        },
        (error: unknown) => scoped.log.error({ err: error }, 'sealing stored playbook secrets'),
      );
    });
    startPlaybookWorkers(scoped, context);
  },
};
