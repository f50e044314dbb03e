import type { DomainPlugin } from './platform/http';
import { authPlugin } from './auth/auth-plugin';
import { dataApiPlugin } from './data-api/data-api-plugin';
import { incidentsPlugin } from './modules/incidents';
import { healthPlugin } from './modules/health';
import { connectionsPlugin } from './modules/connections';
import { agentsPlugin } from './modules/agents';
import { catalogPlugin } from './modules/catalog';
import { scrapersPlugin } from './modules/scrapers';
import { topologyPlugin } from './modules/topology';
import { playbooksPlugin } from './modules/playbooks';
import { eventsPlugin } from './modules/events';
import { agentPushPlugin } from './modules/agent-push';
import { notificationsPlugin } from './modules/notifications';
import { logsPlugin } from './modules/logs';
import { identityPlugin } from './modules/identity';
import { alertsPlugin } from './modules/alerts';
import { incidentRulesPlugin } from './modules/incident-rules';
import { metricsPlugin } from './modules/metrics';
import { searchPlugin } from './modules/search';
import { auditPlugin } from './modules/audit';
import { apiTokensPlugin } from './modules/api-tokens';
import { applyPlugin } from './modules/apply';
import { demoInboxPlugin } from './modules/demo-inbox';

/** Each domain registers its routes as one plugin; the order does not matter. */
export const domainPlugins: DomainPlugin[] = [authPlugin, dataApiPlugin, incidentsPlugin, healthPlugin, connectionsPlugin, agentsPlugin, catalogPlugin, scrapersPlugin, topologyPlugin, playbooksPlugin, eventsPlugin, agentPushPlugin, notificationsPlugin, logsPlugin, identityPlugin, searchPlugin, metricsPlugin, auditPlugin, apiTokensPlugin, alertsPlugin, incidentRulesPlugin, applyPlugin, demoInboxPlugin];
