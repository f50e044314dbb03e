import type { Notification, NotificationInput } from './api/types';

export type RecipientType = 'person' | 'team' | 'others';

export const RECIPIENT_TYPES: readonly { value: RecipientType; label: string }[] = [
  { value: 'person', label: 'Person' },
  { value: 'team', label: 'Team' },
  { value: 'others', label: 'Others' },
];

export interface CustomServiceValues {
  connection: string;
  name: string;
}

/** The form's own shape: text as typed, so a refused save gives back exactly what the user wrote. */
export interface NotificationFormValues {
  title: string;
  events: string[];
  filter: string;
  recipientType: RecipientType;
  personId: string;
  teamId: string;
  customServices: CustomServiceValues[];
  template: string;
  properties: string;
}

export const PROPERTIES_OBJECT_MESSAGE = 'Properties must be a JSON object';

function recipientTypeOf(notification: Notification): RecipientType {
  if (notification.team_id !== null) return 'team';
  if ((notification.custom_services ?? []).length > 0) return 'others';
  return 'person';
}

export function notificationFormValues(notification?: Notification): NotificationFormValues {
  if (notification === undefined) {
    return { title: '', events: [], filter: '', recipientType: 'person', personId: '', teamId: '', customServices: [], template: '', properties: '' };
  }
  const properties = notification.properties ?? {};
  return {
    title: notification.title ?? '',
    events: [...notification.events],
    filter: notification.filter ?? '',
    recipientType: recipientTypeOf(notification),
    personId: notification.person_id ?? '',
    teamId: notification.team_id ?? '',
    customServices: (notification.custom_services ?? []).map((service) => ({ connection: service.connection, name: service.name })),
    template: notification.template ?? '',
    properties: Object.keys(properties).length === 0 ? '' : JSON.stringify(properties, null, 2),
  };
}

/** The properties text as an object, or the message to show when it is not one; blank text is no properties. */
export function parseProperties(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
  if (text.trim() === '') return { ok: true, value: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `Invalid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { ok: false, message: PROPERTIES_OBJECT_MESSAGE };
  return { ok: true, value: parsed as Record<string, unknown> };
}

function blankToNull(text: string): string | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : trimmed;
}

/**
 * What a save sends. Only the chosen recipient type's fields are kept, the others go as null (spec 001 §7), so a
 * notification never has two kinds of recipient. The properties must already have passed `parseProperties`.
 */
export function toNotificationInput(values: NotificationFormValues): NotificationInput {
  const properties = parseProperties(values.properties);
  const services = values.customServices
    .map((service) => ({ connection: service.connection.trim(), name: service.name.trim() }))
    .filter((service) => service.connection !== '');
  return {
    title: blankToNull(values.title),
    events: [...values.events],
    filter: blankToNull(values.filter),
    person_id: values.recipientType === 'person' ? blankToNull(values.personId) : null,
    team_id: values.recipientType === 'team' ? blankToNull(values.teamId) : null,
    custom_services: values.recipientType === 'others' && services.length > 0 ? services : null,
    // A template is Markdown, where leading and trailing blanks can matter: only an all-blank one is dropped.
    template: values.template.trim() === '' ? null : values.template,
    properties: properties.ok ? properties.value : {},
  };
}

/** Spec 001 §4: a notification defined elsewhere (a CRD, a file) is shown but not edited in the UI. */
export function isEditableSource(source: string | null | undefined): boolean {
  return source === undefined || source === null || source === '' || source === 'UI';
}

/** The form field a coded refusal of the server points at (the codes of the notifications module). */
export type ServerErrorField = 'title' | 'events' | 'filter' | 'template' | 'recipient' | 'customServices' | 'properties';

const FIELD_OF_CODE: Readonly<Record<string, ServerErrorField>> = {
  OD_NOTIFICATION_EVENTS: 'events',
  OD_NOTIFICATION_FILTER: 'filter',
  OD_NOTIFICATION_TEMPLATE: 'template',
  OD_NOTIFICATION_RECIPIENT: 'recipient',
  OD_NOTIFICATION_CONNECTION: 'customServices',
  OD_NOTIFICATION_PROPERTIES: 'properties',
};

/** The field to show a refused save's message under, or null when the refusal is not about one field. */
export function serverErrorField(error: unknown): ServerErrorField | null {
  if (typeof error !== 'object' || error === null || !('code' in error) || typeof error.code !== 'string') return null;
  const field = FIELD_OF_CODE[error.code] ?? null;
  // The title is a template too: the server names which of the two it refused in `details`.
  if (field === 'template' && 'details' in error && error.details === 'title') return 'title';
  return field;
}
