import { describe, expect, it } from 'vitest';
import { logVolume, volumeStep } from './log-volume';

const MINUTE = 60_000;
const FROM = Date.UTC(2024, 0, 1, 12, 0);
const TO = FROM + 60 * MINUTE;

function line(minutesAfter: number, level?: string): { timestamp: string; labels: Record<string, string> } {
  return { timestamp: new Date(FROM + minutesAfter * MINUTE).toISOString(), labels: level === undefined ? {} : { level } };
}

describe('logVolume', () => {
  it('picks the shortest readable bar width that covers the range in at most 60 bars', () => {
    expect(volumeStep(15 * MINUTE)).toBe(30_000);
    expect(volumeStep(60 * MINUTE)).toBe(MINUTE);
    expect(volumeStep(24 * 60 * MINUTE)).toBe(30 * MINUTE);
    expect(volumeStep(7 * 24 * 60 * MINUTE)).toBe(3 * 60 * MINUTE);
  });

  it('counts the lines of each minute of an hour by level', () => {
    const volume = logVolume([line(0.5, 'error'), line(0.7, 'info'), line(10.2, 'warn'), line(10.9, 'WARNING'), line(59.5)], FROM, TO);
    expect(volume.stepMs).toBe(MINUTE);
    expect(volume.buckets).toHaveLength(60);
    expect(volume.buckets[0]).toMatchObject({ start: FROM, end: FROM + MINUTE, total: 2, counts: { error: 1, info: 1 } });
    expect(volume.buckets[10]?.counts.warn).toBe(2);
    expect(volume.buckets[59]?.counts.none).toBe(1);
    expect(volume.max).toBe(2);
    expect(volume.counted).toBe(5);
    expect(volume.totals).toEqual({ error: 1, warn: 2, info: 1, debug: 0, other: 0, none: 1 });
  });

  it('starts the bars on a whole step, and counts a line a little outside the range in the nearest bar', () => {
    const volume = logVolume([line(-0.2, 'info'), line(61, 'info')], FROM + 20_000, TO + 20_000);
    expect((volume.buckets[0]?.start ?? 0) % MINUTE).toBe(0);
    expect(volume.buckets[0]?.total).toBe(1);
    expect(volume.buckets.at(-1)?.total).toBe(1);
    expect(volume.buckets.reduce((sum, bucket) => sum + bucket.total, 0)).toBe(2);
  });

  it('leaves lines without a time out of the bars and says how many there were', () => {
    const volume = logVolume([{ timestamp: null, labels: {} }, { timestamp: 'yesterday', labels: {} }, line(5)], FROM, TO);
    expect(volume.untimed).toBe(2);
    expect(volume.counted).toBe(1);
  });
});
