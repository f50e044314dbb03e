import { describe, expect, it } from 'vitest';
import { linksOf } from './http-crawl';

describe('crawl links', () => {
  it('reads every <a href> of a page as an absolute http(s) URL without its fragment', () => {
    const html = '<a class="x" href="/a#top">A</a><A HREF=\'b?x=1&amp;y=2\'>B</A><a href=https://other.test/c>C</a><a href="mailto:x@y.z">M</a><a href="javascript:void(0)">J</a>';
    expect(linksOf(html, 'https://site.test/docs/')).toEqual(['https://site.test/a', 'https://site.test/docs/b?x=1&y=2', 'https://other.test/c']);
  });
});
