/** The incident rules module as the rest of the server sees it: its save rules, its event-queue consumer and its CEL filters (playbook triggers use them too). */
export { incidentRulesPlugin } from './incident-rules-plugin';
export { INCIDENT_RULES_CONSUMER, INCIDENT_RULE_EVENTS, incidentRuleHandlers } from './rule-engine';
export { checkRuleFilter, evaluateRuleFilter } from './rule-filter';
