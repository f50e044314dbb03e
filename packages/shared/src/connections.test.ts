import { describe, expect, it } from 'vitest';
import { CONNECTION_TYPE_SPECS, CONNECTION_TYPES, connectionPropertyDefaults, connectionUrlRequired, NOTIFICATION_CONNECTION_TYPES } from './connections';

describe('connection type specs', () => {
  it('define every connection type', () => {
    expect(Object.keys(CONNECTION_TYPE_SPECS).sort()).toEqual([...CONNECTION_TYPES].sort());
  });

  it('require a URL where the form marks it required, and not where it is optional or absent', () => {
    expect(connectionUrlRequired('postgres')).toBe(true);
    expect(connectionUrlRequired('slackwebhook')).toBe(true);
    expect(connectionUrlRequired('aws')).toBe(false);
    expect(connectionUrlRequired('kubernetes')).toBe(false);
    expect(connectionUrlRequired('jmeter')).toBe(false);
  });

  it('give property defaults as the text they are stored as, leaving out form-only and secret fields', () => {
    expect(connectionPropertyDefaults('redis')).toEqual({ db: '0' });
    expect(connectionPropertyDefaults('email')).toEqual({ port: '587', encryptionMethod: 'Auto', authMethod: 'Unknown' });
    expect(connectionPropertyDefaults('git')).toEqual({ ref: 'main' });
    expect(connectionPropertyDefaults('http')).toEqual({});
  });

  it('sort the notification types from the data types', () => {
    expect(NOTIFICATION_CONNECTION_TYPES.has('slack')).toBe(true);
    expect(NOTIFICATION_CONNECTION_TYPES.has('email')).toBe(true);
    expect(NOTIFICATION_CONNECTION_TYPES.has('postgres')).toBe(false);
  });
});
