import { describe, expect, it } from 'vitest';
import { parseProperties } from './local-properties';

describe('parseProperties', () => {
  it('reads name=value and name: value lines and skips comments and blank lines', () => {
    const text = '# a comment\n! another\n\nincidents.disable=true\nlogs.disable : false\n';
    expect(parseProperties(text)).toEqual([
      { name: 'incidents.disable', value: 'true' },
      { name: 'logs.disable', value: 'false' },
    ]);
  });

  it('keeps separators that appear inside the value', () => {
    expect(parseProperties('url=http://x:1/a=b')).toEqual([{ name: 'url', value: 'http://x:1/a=b' }]);
  });

  it('ignores lines without a name', () => {
    expect(parseProperties('=value\njust-text')).toEqual([]);
  });
});
