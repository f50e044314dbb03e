import { describe, expect, it } from 'vitest';
import { chooseLogFormat, wantsColour } from './logger-format';
import { loadConfig } from './config';

describe('chooseLogFormat', () => {
  it('writes readable lines to a terminal and JSON to anything else', () => {
    expect(chooseLogFormat(undefined, true)).toBe('pretty');
    expect(chooseLogFormat(undefined, false)).toBe('json');
  });

  it('lets LOG_FORMAT force either format whatever stdout is', () => {
    expect(chooseLogFormat('json', true)).toBe('json');
    expect(chooseLogFormat('pretty', false)).toBe('pretty');
  });
});

describe('wantsColour', () => {
  it('colours a terminal unless NO_COLOR is set, and never a pipe', () => {
    expect(wantsColour(true, {})).toBe(true);
    expect(wantsColour(true, { NO_COLOR: '1' })).toBe(false);
    expect(wantsColour(true, { NO_COLOR: '' })).toBe(true);
    expect(wantsColour(false, {})).toBe(false);
  });
});

describe('LOG_FORMAT in the configuration', () => {
  const base = { DATA_DIR: '/nonexistent', OPSDECK_SECRET_KEY: 'a'.repeat(64) };

  it('is taken from the environment', () => {
    expect(loadConfig({ ...base, LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(loadConfig({ ...base, LOG_FORMAT: 'json' }).logFormat).toBe('json');
  });

  it('refuses a value other than json or pretty with a message naming the variable', () => {
    expect(() => loadConfig({ ...base, LOG_FORMAT: 'text' })).toThrow(/Invalid configuration: LOG_FORMAT/);
  });
});
