import { describe, expect, it } from 'vitest';
import { isUnder, staticBase } from './file';

describe('file source paths', () => {
  it('takes the leading folders without glob characters as the base a pattern cannot leave', () => {
    expect(staticBase('/srv/configs/**/*.yaml')).toBe('/srv/configs');
    expect(staticBase('/srv/{a,b}/x.json')).toBe('/srv');
    expect(staticBase('/srv/configs/app.yaml')).toBe('/srv/configs');
    expect(staticBase('/srv/../etc/*.yaml')).toBe('/etc');
  });

  it('counts a path as under a root only inside it, not beside it with the same prefix', () => {
    expect(isUnder('/srv/configs/a.yaml', ['/srv/configs'])).toBe(true);
    expect(isUnder('/srv/configs', ['/srv/configs'])).toBe(true);
    expect(isUnder('/srv/configs-other/a.yaml', ['/srv/configs'])).toBe(false);
    expect(isUnder('/etc/passwd', ['/srv/configs', '/opt'])).toBe(false);
    expect(isUnder('/srv/a.yaml', [])).toBe(false);
  });
});
