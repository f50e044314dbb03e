import { describe, expect, it } from 'vitest';
import {
  INCIDENT_TYPES,
  PAGE_SIZE_OPTIONS,
  SEVERITIES,
  VIRTUAL_OVERSCAN,
  VIRTUAL_ROW_ESTIMATE_PX,
  healthDotColor,
  severityColor,
} from './constants';

describe('constants', () => {
  it('offers the page sizes of the spec', () => {
    expect(PAGE_SIZE_OPTIONS).toEqual([5, 10, 25, 50, 100, 150, 200, 250, 300, 500, 1000]);
    expect([VIRTUAL_ROW_ESTIMATE_PX, VIRTUAL_OVERSCAN]).toEqual([35, 10]);
  });

  it('lists eight incident types and seven severities', () => {
    expect(INCIDENT_TYPES).toHaveLength(8);
    expect(SEVERITIES).toHaveLength(7);
  });

  it('colours health dots red, grey, orange or green', () => {
    for (const status of ['degraded', 'missing', 'unhealthy', 'Unhealthy']) expect(healthDotColor(status)).toBe('red');
    for (const status of ['unknown', 'suspended']) expect(healthDotColor(status)).toBe('grey');
    for (const status of ['warning', 'mixed']) expect(healthDotColor(status)).toBe('orange');
    for (const status of ['healthy', 'good', '', null]) expect(healthDotColor(status)).toBe('green');
  });

  it('colours severities as the spec says', () => {
    expect(severityColor('low')).toBe('green');
    expect(severityColor('medium')).toBe('green');
    expect(severityColor('high')).toBe('orange');
    expect(severityColor('critical')).toBe('red');
    expect(severityColor('blocker')).toBe('red');
    expect(severityColor('info')).toBe('gray');
    expect(severityColor('warning')).toBe('yellow');
  });
});
