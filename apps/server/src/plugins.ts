import type { DomainPlugin } from './platform/http';
import { authPlugin } from './auth/auth-plugin';
import { dataApiPlugin } from './data-api/data-api-plugin';
import { incidentsPlugin } from './modules/incidents/incidents-plugin';
import { healthPlugin } from './modules/health/health-plugin';
import { connectionsPlugin } from './modules/connections/connections-plugin';
import { agentsPlugin } from './modules/agents/agents-plugin';

/** Each domain registers its routes as one plugin; the order does not matter. */
export const domainPlugins: DomainPlugin[] = [authPlugin, dataApiPlugin, incidentsPlugin, healthPlugin, connectionsPlugin, agentsPlugin];
