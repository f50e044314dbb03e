import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors';
import { parseSnapshotRelated, parseSnapshotStart, snapshotContentDisposition, snapshotFileName } from './snapshot';

const NOW = new Date('2026-03-10T12:00:00.000Z');

describe('parseSnapshotStart', () => {
  it('defaults to the last hour, the first range of the dialog', () => {
    expect(parseSnapshotStart(undefined, NOW).toISOString()).toBe('2026-03-10T11:00:00.000Z');
  });

  it('reads minutes, hours and days before now up to 30 days', () => {
    expect(parseSnapshotStart('15m', NOW).toISOString()).toBe('2026-03-10T11:45:00.000Z');
    expect(parseSnapshotStart('24h', NOW).toISOString()).toBe('2026-03-09T12:00:00.000Z');
    expect(parseSnapshotStart('30d', NOW).toISOString()).toBe('2026-02-08T12:00:00.000Z');
  });

  it('reads an ISO timestamp', () => {
    expect(parseSnapshotStart('2026-03-10T08:30:00Z', NOW).toISOString()).toBe('2026-03-10T08:30:00.000Z');
  });

  it('refuses other text, an empty range, more than 30 days and the future', () => {
    for (const start of ['1w', 'soon', '0m', '31d', '2026-01-01T00:00:00Z', '2026-03-11T00:00:00Z', '1773000000']) {
      expect(() => parseSnapshotStart(start, NOW), start).toThrow(AppError);
    }
  });
});

describe('parseSnapshotRelated', () => {
  it('is off unless true is sent', () => {
    expect(parseSnapshotRelated(undefined)).toBe(false);
    expect(parseSnapshotRelated('false')).toBe(false);
    expect(parseSnapshotRelated('true')).toBe(true);
    expect(() => parseSnapshotRelated('yes')).toThrow(AppError);
  });
});

describe('the snapshot file name', () => {
  it('is the topology name with -snapshot.zip', () => {
    expect(snapshotFileName('Shop')).toBe('Shop-snapshot.zip');
    expect(snapshotContentDisposition('Shop')).toBe('attachment; filename="Shop-snapshot.zip"');
  });

  it('cannot break out of the header, and keeps a non-ASCII name in filename*', () => {
    expect(snapshotFileName('a"b\r\nc/d')).toBe('a_b__c_d-snapshot.zip');
    expect(snapshotContentDisposition('Café')).toBe(`attachment; filename="Caf_-snapshot.zip"; filename*=UTF-8''Caf%C3%A9-snapshot.zip`);
    expect(snapshotFileName('')).toBe('topology-snapshot.zip');
  });
});
