import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context';
import { consumeWhileOpen, EventQueueConsumer } from '../../platform/event-queue';
import type { DomainPlugin } from '../../platform/http';
import { registerIncidentRuleSaveRules } from './incident-rule-save-rules';
import { INCIDENT_RULES_CONSUMER, incidentRuleHandlers } from './rule-engine';

/**
 * The engine runs in worker processes only. Several workers (or several processes) share the consumer's rows: a claim
 * hands each event to one of them, and the open-group index decides when two events of one group race.
 */
function registerWorkers(app: FastifyInstance, context: AppContext): void {
  if (context.config.role === 'api') return;
  const log = app.log.child({ module: 'incident-rules' });
  const consumer = new EventQueueConsumer({
    pool: context.db.pool,
    bus: context.bus,
    consumer: INCIDENT_RULES_CONSUMER,
    handlers: incidentRuleHandlers({
      pool: context.db.pool,
      onFilterError: (rule, source, error) => log.debug({ rule: rule.name, source: source.type, id: source.id, error }, 'incident rule filter did not evaluate'),
    }),
    // Events committed by this process wake it through the bus at once; the poll finds other processes' events.
    pollIntervalMs: 5_000,
    backoffMs: 5_000,
    claimBatch: 20,
    onError: (error, event) => log.warn({ err: error, event: event?.name, id: event?.id }, 'incident rule event failed'),
  });
  consumeWhileOpen(app, [consumer]);
}

export const incidentRulesPlugin: DomainPlugin = {
  name: 'incident-rules',
  register(app, context) {
    registerIncidentRuleSaveRules(context.db);
    registerWorkers(app, context);
  },
};
