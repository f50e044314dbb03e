import { describe, expect, it } from 'vitest';
import { keyMatches, parseS3Path } from './s3-listing';

describe('s3:// folder paths', () => {
  it('split into the bucket, the fixed key prefix listed, and the glob segments matched here', () => {
    expect(parseS3Path('s3://backups')).toEqual({ bucket: 'backups', prefix: '', segments: [] });
    expect(parseS3Path('s3://backups/db')).toEqual({ bucket: 'backups', prefix: 'db/', segments: [] });
    expect(parseS3Path('s3://backups/db/')).toEqual({ bucket: 'backups', prefix: 'db/', segments: [] });
    expect(parseS3Path('s3://recursive-test/developers/**/*.txt')).toEqual({ bucket: 'recursive-test', prefix: 'developers/', segments: ['**', '*.txt'] });
    expect(parseS3Path('/var/backups')).toBeNull();
  });

  it('match keys against ** across any number of folders and * within one', () => {
    expect(keyMatches(['**', '*.txt'], ['a.txt'])).toBe(true);
    expect(keyMatches(['**', '*.txt'], ['a', 'b', 'c.txt'])).toBe(true);
    expect(keyMatches(['*', '*.zip'], ['2026', 'x.zip'])).toBe(true);
    expect(keyMatches(['*', '*.zip'], ['2026', 'deep', 'x.zip'])).toBe(false);
    expect(keyMatches(['*.zip'], ['x.tar'])).toBe(false);
  });
});
