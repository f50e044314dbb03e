import type { Hypothesis } from '../api/types';

export interface HypothesisTreeNode {
  hypothesis: Hypothesis;
  children: HypothesisTreeNode[];
}

/** The tree through parent_id; a hypothesis whose parent is missing is shown at the top rather than lost. */
export function buildHypothesisTree(hypotheses: readonly Hypothesis[]): HypothesisTreeNode[] {
  const nodes = new Map(hypotheses.map((hypothesis) => [hypothesis.id, { hypothesis, children: [] as HypothesisTreeNode[] }]));
  const roots: HypothesisTreeNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.hypothesis.parent_id === null ? undefined : nodes.get(node.hypothesis.parent_id);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}
