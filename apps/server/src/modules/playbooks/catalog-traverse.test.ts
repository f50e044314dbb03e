import { describe, expect, it } from 'vitest';
import { CatalogTraversal, TRAVERSE_MAX_CALLS, traverseQuestion, TraverseError } from './catalog-traverse';

describe('catalog_traverse questions', () => {
  it("reads an id, a type or a path of types, and duty's default direction, incoming", () => {
    expect(traverseQuestion(['k-1', 'Kubernetes::GitRepository'])).toEqual({ id: 'k-1', types: ['Kubernetes::GitRepository'], direction: 'incoming' });
    expect(traverseQuestion(['k-1', 'Kubernetes::HelmRelease/Kubernetes::Kustomization', 'outgoing'])).toEqual({
      id: 'k-1',
      types: ['Kubernetes::HelmRelease', 'Kubernetes::Kustomization'],
      direction: 'outgoing',
    });
  });

  it('refuses a missing type, an empty step of a path, another direction and a wrong number of arguments', () => {
    for (const args of [['k-1'], ['k-1', ''], ['k-1', 'A//B'], ['k-1', 'A', 'both'], ['k-1', 'A', 'incoming', 'x']]) {
      expect(() => traverseQuestion(args), JSON.stringify(args)).toThrow(TraverseError);
    }
  });

  it('answers an empty list until the question is loaded, then the loaded answer', async () => {
    const traversal = new CatalogTraversal(async (questions) => questions.map(() => []));
    expect(traversal.call(['k-1', 'T'])).toEqual([]);
    expect(traversal.hasPending).toBe(true);
    await traversal.load();
    expect(traversal.hasPending).toBe(false);
    expect(traversal.call(['k-1', 'T'])).toEqual([]);
    expect(traversal.hasPending).toBe(false);
  });

  it('refuses more different questions than one run may ask', () => {
    const traversal = new CatalogTraversal(async (questions) => questions.map(() => []));
    for (let i = 0; i < TRAVERSE_MAX_CALLS; i += 1) traversal.call([`k-${i}`, 'T']);
    expect(() => traversal.call(['k-last', 'T'])).toThrow(/at most 20 different questions/);
  });
});
