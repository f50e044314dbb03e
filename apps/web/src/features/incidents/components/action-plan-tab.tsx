import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { Switch } from '@/components/switch/switch';
import type { Comment, IncidentDetail } from '../api/types';
import { HypothesisNode } from './hypothesis-node';
import { buildHypothesisTree } from './hypothesis-tree';

export const EXPAND_COMMENTS_PARAM = 'comments';

export function groupCommentsByHypothesis(comments: readonly Comment[]): Map<string, Comment[]> {
  const groups = new Map<string, Comment[]>();
  for (const comment of comments) {
    if (comment.hypothesis_id === null) continue;
    const group = groups.get(comment.hypothesis_id) ?? [];
    group.push(comment);
    groups.set(comment.hypothesis_id, group);
  }
  return groups;
}

/** The hypothesis tree: root, its contributing factors, and their solutions. */
export function ActionPlanTab({ incident, canWrite }: { incident: IncidentDetail; canWrite: boolean }) {
  const [params, setParams] = useSearchParams();
  const expandAll = params.get(EXPAND_COMMENTS_PARAM) === 'true';
  const tree = useMemo(() => buildHypothesisTree(incident.hypotheses), [incident.hypotheses]);
  const commentsByHypothesis = useMemo(() => groupCommentsByHypothesis(incident.comments), [incident.comments]);

  const handleExpandAll = (checked: boolean) => {
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (checked) next.set(EXPAND_COMMENTS_PARAM, 'true');
        else next.delete(EXPAND_COMMENTS_PARAM);
        return next;
      },
      { replace: true },
    );
  };

  return (
    <div className="flex flex-col gap-3">
      <label className="flex items-center gap-2 self-end text-sm text-gray-700">
        <Switch checked={expandAll} onCheckedChange={handleExpandAll} label={expandAll ? 'Collapse All' : 'Expand All'} />
        {expandAll ? 'Collapse All' : 'Expand All'}
      </label>
      {tree.length === 0 ? (
        <p className="text-sm text-gray-500">No hypotheses yet</p>
      ) : (
        <ul aria-label="Hypotheses" className="flex flex-col gap-2">
          {tree.map((node) => (
            <HypothesisNode key={node.hypothesis.id} node={node} commentsByHypothesis={commentsByHypothesis} canWrite={canWrite} expandAll={expandAll} />
          ))}
        </ul>
      )}
    </div>
  );
}
