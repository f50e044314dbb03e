import { describe, expect, it } from 'vitest';
import { lineLevel } from './log-levels';

describe('lineLevel', () => {
  it('reads the level label the backends write, whatever its case', () => {
    expect(lineLevel({ labels: { level: 'ERROR' } })).toBe('error');
    expect(lineLevel({ labels: { level: 'warn' } })).toBe('warn');
    expect(lineLevel({ labels: { level: 'info' } })).toBe('info');
    expect(lineLevel({ labels: { level: 'debug' } })).toBe('debug');
  });

  it('folds the names other loggers give their levels onto the five it colours', () => {
    expect(lineLevel({ labels: { level: 'fatal' } })).toBe('error');
    expect(lineLevel({ labels: { level: 'critical' } })).toBe('error');
    expect(lineLevel({ labels: { severity: 'Warning' } })).toBe('warn');
    expect(lineLevel({ labels: { lvl: 'notice' } })).toBe('info');
    expect(lineLevel({ labels: { loglevel: 'trace' } })).toBe('debug');
  });

  it('calls a level it does not know other, and a line without one has none', () => {
    expect(lineLevel({ labels: { level: 'chatty' } })).toBe('other');
    expect(lineLevel({ labels: { app: 'api' } })).toBeNull();
    expect(lineLevel({ labels: { level: ' ' } })).toBeNull();
  });
});
