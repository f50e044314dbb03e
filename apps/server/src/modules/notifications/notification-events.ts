import type { NotificationEvent } from '@opsdeck/shared';

export { isNotificationEvent, NOTIFICATION_EVENTS, type NotificationEvent } from '@opsdeck/shared';

/** Events sharing a resource kind, a default template and the variables of filters and templates. */
export type EventFamily = 'check' | 'component' | 'config' | 'playbook';

export function familyOf(event: NotificationEvent): EventFamily {
  if (event.startsWith('check.')) return 'check';
  if (event.startsWith('component.')) return 'component';
  if (event.startsWith('config.')) return 'config';
  return 'playbook';
}

/**
 * State changes of one resource that may flip back and forth: only these are held to the flap window. A config's
 * creation, update or deletion is news each time; so is an approval.
 */
export function isStateEvent(event: NotificationEvent): boolean {
  return event.startsWith('check.') || event.startsWith('component.') || /^config\.(healthy|unhealthy|unknown|warning)$/.test(event);
}

/** The variables a filter and a template of this family read, besides `event`. */
export function variablesOf(family: EventFamily): readonly string[] {
  return family === 'playbook' ? ['playbook', 'run'] : [family];
}
