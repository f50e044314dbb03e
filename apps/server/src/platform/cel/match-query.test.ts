import { describe, expect, it } from 'vitest';
import { createCelEnvironment } from './cel-environment';
import { literalMatchQueries, matchQuery, MatchQueryError, parseMatchQuery, withoutRootDots } from './match-query';

const pod = {
  name: 'checkout-7d9f',
  type: 'Kubernetes::Pod',
  status: 'CrashLoopBackOff',
  labels: { 'Expected-Fail': 'false', owner: 'data-team' },
  tags: { cluster: 'prod', namespace: 'shop' },
  properties: [
    { name: 'os', text: 'linux' },
    { name: 'cpu', value: 4 },
  ],
};

describe('matchQuery', () => {
  it("matches Mission Control's published queries: every term must hold, commas list alternatives", () => {
    expect(matchQuery(pod, 'type=Kubernetes::Pod,Kubernetes::Deployment name!=postgres tags.cluster=prod')).toBe(true);
    expect(matchQuery(pod, 'type!=http labels.Expected-Fail!=true')).toBe(true);
    expect(matchQuery(pod, 'type=Kubernetes::Deployment tags.cluster=prod')).toBe(false);
    expect(matchQuery(pod, 'properties.os=linux labels.owner=data-team')).toBe(true);
    expect(matchQuery(pod, 'properties.os=windows')).toBe(false);
  });

  it('reads wildcards, exclusions and numeric comparisons, and a missing field as empty', () => {
    expect(matchQuery(pod, 'name=checkout-*')).toBe(true);
    expect(matchQuery(pod, 'name=*-7d9f')).toBe(true);
    expect(matchQuery(pod, 'name=*out*')).toBe(true);
    expect(matchQuery(pod, 'name=!checkout-*')).toBe(false);
    expect(matchQuery(pod, 'properties.cpu>2 properties.cpu<8')).toBe(true);
    expect(matchQuery(pod, 'properties.cpu>4')).toBe(false);
    expect(matchQuery(pod, 'labels.missing=x')).toBe(false);
    expect(matchQuery(pod, 'labels.missing!=x')).toBe(true);
    expect(matchQuery(pod, 'name="checkout-7d9f"')).toBe(true);
  });

  it('refuses by name the parts of the search grammar this server does not run, rather than matching loosely', () => {
    for (const query of ['type=a or type=b', '(type=a)', 'type=a | name=b', '', 'justaword', 'cpu>many']) {
      expect(() => parseMatchQuery(query), query).toThrow(MatchQueryError);
    }
  });

  it('runs as a CEL function, with the leading-dot identifiers Mission Control writes', () => {
    const environment = createCelEnvironment();
    environment.registerVariable('check', 'map<string, dyn>');
    const filter = withoutRootDots('matchQuery(.check, "type!=http labels.Expected-Fail!=true")');
    expect(filter).toBe('matchQuery(check, "type!=http labels.Expected-Fail!=true")');
    expect(environment.evaluate(filter, { check: { type: 'tcp', labels: {} } })).toBe(true);
    expect(environment.evaluate(filter, { check: { type: 'http', labels: {} } })).toBe(false);
  });

  it('drops only a dot that starts an operand, never one inside a string, after a call or in a number', () => {
    expect(withoutRootDots('.a.b == "x.y" && f(.c).d > .5')).toBe('a.b == "x.y" && f(c).d > .5');
    expect(withoutRootDots("'.x' + .y")).toBe("'.x' + y");
    expect(literalMatchQueries('matchQuery(.config, "type=A tags.x=y") && matchQuery(c, \'name=b\')')).toEqual(['type=A tags.x=y', 'name=b']);
  });
});
