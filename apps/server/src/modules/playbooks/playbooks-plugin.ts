import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context';
import { consumeWhileOpen, EventQueueConsumer } from '../../platform/event-queue';
import type { DomainPlugin } from '../../platform/http';
import { PLAYBOOK_TRIGGERS_CONSUMER, playbookTriggerHandlers } from './playbook-triggers';
import { sealStoredPlaybookSecrets } from './playbook-secrets';
import { registerPlaybookSchemaRoute, registerPlaybookSpecHooks } from './spec-hooks';
import { registerPlaybookRoutes } from './playbook-routes';
import { registerPlaybookWebhookRoutes } from './playbook-webhooks';
import { startPlaybookWorkers } from './playbook-worker';

/** Check and component events start the playbooks whose `on` they match; workers share the consumer's rows. */
function startTriggerConsumer(app: FastifyInstance, context: AppContext): void {
  const log = app.log.child({ module: 'playbook-triggers' });
  const consumer = new EventQueueConsumer({
    pool: context.db.pool,
    bus: context.bus,
    consumer: PLAYBOOK_TRIGGERS_CONSUMER,
    handlers: playbookTriggerHandlers({
      pool: context.db.pool,
      bus: context.bus,
      secretKey: context.config.secretKey,
      onSkipped: (playbook, target, reason) => log.info({ playbook: playbook.name, target: `${target.type}/${target.name}`, reason }, 'playbook trigger started no run'),
    }),
    pollIntervalMs: 5_000,
    backoffMs: 5_000,
    claimBatch: 20,
    onError: (error, event) => log.warn({ err: error, event: event?.name, id: event?.id }, 'playbook trigger event failed'),
  });
  consumeWhileOpen(app, [consumer]);
}

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
    registerPlaybookWebhookRoutes(scoped, context);
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
    startTriggerConsumer(scoped, context);
  },
};
