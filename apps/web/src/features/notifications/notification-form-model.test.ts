import { describe, expect, it } from 'vitest';
import type { Notification } from './api/types';
import { isEditableSource, notificationFormValues, parseProperties, PROPERTIES_OBJECT_MESSAGE, serverErrorField, toNotificationInput } from './notification-form-model';

const stored: Notification = {
  id: 'n1',
  name: null,
  title: 'Checkout',
  events: ['check.failed'],
  filter: 'check.type == "http"',
  person_id: null,
  team_id: null,
  custom_services: [{ connection: 'connection://default/ops-hook', name: 'ops' }],
  template: '# Down',
  template_syntax: 'liquid',
  properties: { channel: '#ops' },
  source: 'UI',
  created_by: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  person: null,
  team: null,
  creator: null,
};

describe('notification form model', () => {
  it('opens a notification with custom services as an Others recipient with its properties as JSON text', () => {
    const values = notificationFormValues(stored);
    expect(values.recipientType).toBe('others');
    expect(values.customServices).toEqual([{ connection: 'connection://default/ops-hook', name: 'ops' }]);
    expect(JSON.parse(values.properties)).toEqual({ channel: '#ops' });
  });

  it('sends only the chosen kind of recipient and null for the others', () => {
    const values = { ...notificationFormValues(stored), recipientType: 'team' as const, teamId: 't1', personId: 'p1' };
    const input = toNotificationInput(values);
    expect(input).toMatchObject({ team_id: 't1', person_id: null, custom_services: null });
  });

  it('sends blank text as null, drops services without a connection and trims names', () => {
    const values = {
      ...notificationFormValues(),
      events: ['check.failed'],
      title: '  ',
      filter: ' ',
      recipientType: 'others' as const,
      customServices: [
        { connection: 'connection://default/hook', name: ' pager ' },
        { connection: '', name: 'half-filled' },
      ],
    };
    expect(toNotificationInput(values)).toEqual({
      title: null,
      events: ['check.failed'],
      filter: null,
      person_id: null,
      team_id: null,
      custom_services: [{ connection: 'connection://default/hook', name: 'pager' }],
      template: null,
      properties: {},
    });
  });

  it('accepts a JSON object or blank text as properties and refuses arrays, scalars and broken JSON', () => {
    expect(parseProperties('')).toEqual({ ok: true, value: {} });
    expect(parseProperties('{"a": 1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseProperties('[1]')).toEqual({ ok: false, message: PROPERTIES_OBJECT_MESSAGE });
    expect(parseProperties('3')).toEqual({ ok: false, message: PROPERTIES_OBJECT_MESSAGE });
    expect(parseProperties('{nope')).toMatchObject({ ok: false, message: expect.stringContaining('Invalid JSON') });
  });

  it('lets the UI edit only notifications whose source is UI or empty', () => {
    expect(isEditableSource('UI')).toBe(true);
    expect(isEditableSource('')).toBe(true);
    expect(isEditableSource(null)).toBe(true);
    expect(isEditableSource('KubernetesCRD')).toBe(false);
  });

  it('points each coded refusal of the server at its field and ignores other errors', () => {
    expect(serverErrorField({ code: 'OD_NOTIFICATION_FILTER', message: 'x' })).toBe('filter');
    expect(serverErrorField({ code: 'OD_NOTIFICATION_CONNECTION', message: 'x' })).toBe('customServices');
    expect(serverErrorField({ code: 'OD_NOTIFICATION_TEMPLATE', message: 'x', details: 'title' })).toBe('title');
    expect(serverErrorField({ code: 'OD_NOTIFICATION_TEMPLATE', message: 'x', details: 'template' })).toBe('template');
    expect(serverErrorField({ code: 'OD500', message: 'x' })).toBeNull();
    expect(serverErrorField(new Error('network'))).toBeNull();
  });
});
