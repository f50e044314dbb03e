import { AppError } from '../../platform/errors';

/** The coded 400s of an incident rule that cannot be saved; `details` names the field at fault. */
export const incidentRuleErrors = {
  spec: (field: string, problem: string) =>
    new AppError(
      400,
      'OD_INCIDENT_RULE_SPEC',
      `The incident rule spec is not valid: ${field === '' ? '' : `${field} `}${problem}`,
      field === '' ? 'spec' : `spec.${field}`,
      'See docs/incident-rules.md for the fields: filter, sources, incident {title, type, severity, description}, groupBy, groupWindow, autoResolve, responders',
    ),
  filter: (problem: string) =>
    new AppError(
      400,
      'OD_INCIDENT_RULE_FILTER',
      `The incident rule's filter is not a valid CEL expression: ${problem}`,
      'spec.filter',
      "Write CEL returning a bool over check, component and alert, e.g. alert.severity == 'critical' or check.status == 'unhealthy'",
    ),
  template: (field: 'title' | 'description', problem: string) =>
    new AppError(
      400,
      'OD_INCIDENT_RULE_TEMPLATE',
      `The incident rule's ${field} is not a valid template: ${problem}`,
      `spec.incident.${field}`,
      'Templates are Liquid over check, component, alert and rule, e.g. {{ alert.name }} on {{ alert.labels.instance }}',
    ),
  responder: (field: string, problem: string) =>
    new AppError(400, 'OD_INCIDENT_RULE_RESPONDER', `The incident rule's responders are not valid: ${problem}`, field, 'Name existing teams by name and people by e-mail'),
  readOnly: (table: string) =>
    new AppError(
      405,
      'OD_READ_ONLY_TABLE',
      `The table '${table}' is written by the server only`,
      table,
      'Alerts arrive through POST /api/alerts/alertmanager or /api/alerts/webhook (and may only be deleted here); rule groups are kept by the incident rules engine',
    ),
};
