import { AppError } from '../../platform/errors';
import { NOTIFICATION_EVENTS } from './notification-events';

/** The coded 400s of a notification that cannot be saved; `details` names the field at fault. */
export const notificationErrors = {
  events: (message: string) =>
    new AppError(400, 'OD_NOTIFICATION_EVENTS', `The notification's events are not valid: ${message}`, 'events', `Choose one or more of ${NOTIFICATION_EVENTS.join(', ')}`),
  filter: (problem: string) =>
    new AppError(
      400,
      'OD_NOTIFICATION_FILTER',
      `The notification's filter is not a valid CEL expression: ${problem}`,
      'filter',
      "Write CEL returning a bool over event and the event's resource, e.g. check.type == 'http' or config.type.startsWith('Kubernetes::')",
    ),
  template: (field: 'template' | 'title' | 'template_syntax', problem: string) =>
    new AppError(
      400,
      'OD_NOTIFICATION_TEMPLATE',
      field === 'template_syntax' ? `The notification's template syntax is not valid: ${problem}` : `The notification's ${field} is not a valid template: ${problem}`,
      field,
      'Templates are Liquid over event, check, component, config, playbook and run, e.g. {{ check.name }} is {{ check.status }}; notifications applied from Mission Control YAML are Go templates, e.g. {{.check.name}}',
    ),
  recipient: (message: string) =>
    new AppError(
      400,
      'OD_NOTIFICATION_RECIPIENT',
      `The notification's recipient is not valid: ${message}`,
      'person_id, team_id, custom_services',
      'Set exactly one of person_id, team_id, custom_services or playbook_id',
    ),
  /** `field` is where the connection is named: the recipient's custom_services or the fallback's. */
  connection: (message: string, supported: readonly string[], field: 'custom_services' | 'properties.fallback' = 'custom_services') =>
    new AppError(
      400,
      'OD_NOTIFICATION_CONNECTION',
      `The notification's connection is not valid: ${message}`,
      field,
      `Name an existing connection (connection://namespace/name or its id) of one of the types ${supported.join(', ')}`,
    ),
  /** `field` is where the playbook is named: the recipient's playbook_id or the fallback's. */
  playbook: (message: string, field: 'playbook_id' | 'properties.fallback') =>
    new AppError(
      400,
      'OD_NOTIFICATION_PLAYBOOK',
      `The notification's playbook is not valid: ${message}`,
      field,
      "Name a playbook that exists, is offered for the resources of the notification's events (its configs, components or checks selectors) and gives every required parameter a default",
    ),
  playbookForbidden: (field: 'playbook_id' | 'properties.fallback') =>
    new AppError(
      403,
      'OD_NOTIFICATION_PLAYBOOK_FORBIDDEN',
      'A notification that runs a playbook needs the permission to run playbooks (playbook_runs write)',
      field,
      'Ask someone who may run playbooks to make this change, or send a message instead',
    ),
  /** `property` names the one at fault (properties.waitFor), so an apply can point at its spec field. */
  properties: (message: string, property?: string) =>
    new AppError(
      400,
      'OD_NOTIFICATION_PROPERTIES',
      `The notification's properties are not valid: ${message}`,
      property === undefined ? 'properties' : `properties.${property}`,
      'properties is a JSON object',
    ),
  source: (source: string) =>
    new AppError(
      400,
      'OD_NOTIFICATION_SOURCE',
      `This notification comes from ${source} and cannot be changed here`,
      'source',
      'Change it where it is defined, or create a new notification from the UI',
    ),
};
