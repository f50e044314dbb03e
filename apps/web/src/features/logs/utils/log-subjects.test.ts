import { describe, expect, it } from 'vitest';
import { placeOf, shortType } from './log-subjects';

describe('placeOf', () => {
  it("places a Kubernetes item by its cluster and namespace, leaving the cloud account's tags out", () => {
    expect(placeOf({ tags: { cluster: 'prod-eu', namespace: 'shop', account: 'shop-prod', region: 'eu-west-1' } })).toBe('prod-eu / shop');
    expect(placeOf({ tags: { namespace: 'shop' } })).toBe('shop');
  });

  it('places a cloud item, which has neither, by its account and region, and an item without any of them nowhere', () => {
    expect(placeOf({ tags: { account: 'shop-prod', region: 'eu-west-1' } })).toBe('shop-prod / eu-west-1');
    expect(placeOf({ tags: { team: 'payments' } })).toBeNull();
    expect(placeOf({ tags: {} })).toBeNull();
  });
});

describe('shortType', () => {
  it('keeps the last part of a class::subtype type', () => {
    expect(shortType('Kubernetes::Deployment')).toBe('Deployment');
    expect(shortType('AWS::EC2::Instance')).toBe('Instance');
    expect(shortType('Database')).toBe('Database');
    expect(shortType(null)).toBeNull();
  });
});
