import type { DomainPlugin } from '../../platform/http';
import { registerTopologySchemaRoute, registerTopologySpecHooks } from './spec-hooks';
import { registerTopologyRunRoutes, startTopologyWorkers } from './topology-runs';
import { registerTopologyReadRoutes } from './topology-routes';

/**
 * Topology (issue #13): the spec rules on every write of `topologies` and the spec's JSON Schema, Run Now, the read
 * API (`/api/topology`, the snapshot), and outside the api role the scheduler that builds each topology.
 */
export const topologyPlugin: DomainPlugin = {
  name: 'topology',
  register(scoped, context) {
    registerTopologySpecHooks(context);
    registerTopologySchemaRoute(scoped);
    registerTopologyRunRoutes(scoped, context);
    registerTopologyReadRoutes(scoped, context);
    if (context.config.role !== 'api') startTopologyWorkers(scoped, context);
  },
};
