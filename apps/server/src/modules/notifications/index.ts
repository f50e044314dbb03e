/** The notifications module as the rest of the server sees it. */
export { notificationsPlugin } from './notifications-plugin';
export { NOTIFICATION_EVENTS, type NotificationEvent } from './notification-events';
export { NOTIFICATION_CONSUMER, NotificationDeliveryConsumer, notificationHandlers } from './notification-engine';
export { checkNotificationConnections, validateNotificationRows } from './notification-save-rules';
export { checkNotificationPlaybooks } from './notification-playbook';
