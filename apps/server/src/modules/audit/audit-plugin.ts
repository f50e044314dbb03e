import { writeHooksFor } from '../../data-api/write-hooks';
import type { DomainPlugin } from '../../platform/http';
import { auditErrors } from './audit-errors';
import { registerAuditHook } from './audit-hook';
import { AuditRetentionScheduler } from './audit-retention';

/**
 * The audit log's place in the API: admins read audit_log through the data API (resource 'audit', resource-map.ts),
 * nobody writes it there, and worker processes purge it by age. The rows themselves come from the global hook
 * (audit-hook.ts), registered on the root instance before every route (DomainPlugin.registerGlobal).
 */
export const auditPlugin: DomainPlugin = {
  name: 'audit',
  registerGlobal(app, context) {
    registerAuditHook(app, context);
  },
  register(app, context) {
    writeHooksFor(context.db).register('audit_log', (_rows, method) => {
      throw auditErrors.appendOnly(method);
    });
    if (context.config.role === 'api') return;
    const log = app.log.child({ module: 'audit' });
    const retention = new AuditRetentionScheduler({ pool: context.db.pool, onError: (error) => log.warn({ err: error }, 'audit retention failed') });
    app.addHook('onReady', async () => retention.start());
    app.addHook('onClose', async () => retention.stop());
  },
};
