import { describe, expect, it } from 'vitest';
import { applyCatalogParams, isProblem, parseCatalogParams, parseLabels, parseTags } from './catalog-params';

describe('catalog URL parameters', () => {
  it('knows whether the user chose the sort column, so a search without one can order by relevance', () => {
    expect(parseCatalogParams(new URLSearchParams('search=checkout'))).toMatchObject({ sortBy: 'type', sortByChosen: false });
    expect(parseCatalogParams(new URLSearchParams('search=checkout&sortBy=name'))).toMatchObject({ sortBy: 'name', sortByChosen: true });
    expect(parseCatalogParams(new URLSearchParams('sortBy='))).toMatchObject({ sortBy: 'type', sortByChosen: false });
  });

  it('reads key__:__value label pairs and names the labels parameter when a pair has no separator', () => {
    expect(parseLabels('app__:__api,team__:__a:b')).toEqual({ app: 'api', team: 'a:b' });
    const problem = parseLabels('app__:__api,app=api');
    expect(isProblem(problem) && problem.param).toBe('labels');
    expect(isProblem(parseLabels('__:__value'))).toBe(true);
  });

  it('reads key____value:1 and :-1 tag filters and names the tags parameter when one is malformed', () => {
    expect(parseTags('cluster____prod:1,env____dev:-1')).toEqual({ include: { cluster: 'prod' }, exclude: [{ key: 'env', value: 'dev' }] });
    for (const text of ['cluster=prod', 'cluster____prod:2', 'cluster____prod:1,env:1', 'prod:1']) {
      const problem = parseTags(text);
      expect({ text, param: isProblem(problem) ? problem.param : null }).toEqual({ text, param: 'tags' });
    }
  });

  it('reads groupByProp as a tag grouping, alone or in the older groupBy=tags form, and drops it once the grouping changes', () => {
    expect(parseCatalogParams(new URLSearchParams('groupBy=tags&groupByProp=cluster')).groupBy).toEqual(['cluster__tag']);
    expect(parseCatalogParams(new URLSearchParams('groupBy=type&groupByProp=cluster')).groupBy).toEqual(['type', 'cluster__tag']);
    expect(parseCatalogParams(new URLSearchParams('groupByProp=cluster')).groupBy).toEqual(['cluster__tag']);
    expect(parseCatalogParams(new URLSearchParams('groupBy=cluster__tag&groupByProp=cluster')).groupBy).toEqual(['cluster__tag']);
    expect(parseCatalogParams(new URLSearchParams('groupBy=tags')).groupBy).toEqual(['config_class', 'type']);
    expect(applyCatalogParams(new URLSearchParams('groupBy=tags&groupByProp=cluster'), { groupBy: null }).toString()).toBe('');
  });
});
