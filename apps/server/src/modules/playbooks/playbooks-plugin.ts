import type { DomainPlugin } from '../../platform/http';
import { registerPlaybookSchemaRoute, registerPlaybookSpecHooks } from './spec-hooks';
import { registerPlaybookRoutes } from './playbook-routes';
import { startPlaybookWorkers } from './playbook-worker';

/**
 * Playbooks (issue #14): the spec rules on every write of `playbooks` (exec actions need the execute permission), the
 * spec's JSON Schema, the run API (`/api/playbook/…`), and outside the api role the workers that run them.
 */
export const playbooksPlugin: DomainPlugin = {
  name: 'playbooks',
  register(scoped, context) {
    registerPlaybookSpecHooks(context);
    registerPlaybookSchemaRoute(scoped);
    registerPlaybookRoutes(scoped, context);
    if (context.config.role !== 'api') startPlaybookWorkers(scoped, context);
  },
};
