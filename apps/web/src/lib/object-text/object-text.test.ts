import { describe, expect, it } from 'vitest';
import { objectToText, parseObjectText } from './object-text';

describe('objectToText', () => {
  it('writes an empty object as no text and any other object as YAML', () => {
    expect(objectToText({})).toBe('');
    expect(objectToText({ team: 'web' })).toBe('team: web\n');
  });
});

describe('parseObjectText', () => {
  it('reads YAML and JSON objects alike', () => {
    expect(parseObjectText('team: web')).toEqual({ team: 'web' });
    expect(parseObjectText('{"team": "web"}')).toEqual({ team: 'web' });
  });

  it('reads blank text as an empty object', () => {
    expect(parseObjectText('  \n')).toEqual({});
  });

  it('refuses text that does not parse or holds something other than an object', () => {
    expect(parseObjectText('a: [')).toBeNull();
    expect(parseObjectText('- x')).toBeNull();
    expect(parseObjectText('42')).toBeNull();
  });
});
