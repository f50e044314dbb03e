/** The incident rules module as the rest of the server sees it: its save rules and its event-queue consumer. */
export { incidentRulesPlugin } from './incident-rules-plugin';
export { INCIDENT_RULES_CONSUMER, INCIDENT_RULE_EVENTS, incidentRuleHandlers } from './rule-engine';
