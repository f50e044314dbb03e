/** The events a notification can be sent for (spec 001 §9), in the order the form lists them. */
export const NOTIFICATION_EVENTS = [
  'check.failed',
  'check.passed',
  'component.healthy',
  'component.unhealthy',
  'component.unknown',
  'component.warning',
  'config.created',
  'config.deleted',
  'config.healthy',
  'config.unhealthy',
  'config.unknown',
  'config.updated',
  'config.warning',
  'playbook.approval.inserted',
  'playbook.spec.approval.updated',
] as const;

export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

export function isNotificationEvent(name: string): name is NotificationEvent {
  return (NOTIFICATION_EVENTS as readonly string[]).includes(name);
}

/** Where the console shows the resource a notification event is about; its messages link there and so does its history. */
export function notificationResourcePath(event: NotificationEvent, resourceId: string): string {
  const id = encodeURIComponent(resourceId);
  if (event.startsWith('check.')) return `/health?checkId=${id}`;
  if (event.startsWith('config.')) return `/catalog/${id}`;
  if (event.startsWith('component.')) return `/topology/${id}`;
  return event === 'playbook.approval.inserted' ? `/playbooks/runs/${id}` : `/playbooks/${id}`;
}
