import { useState, type FormEvent } from 'react';
import { clsx } from 'clsx';
import { ChevronDown, ChevronRight, MessageSquare, Plus, Trash2 } from 'lucide-react';
import {
  DEBOUNCE_MS,
  DISPROVEN_STATUS,
  EMPTY_HYPOTHESIS_TITLE,
  HYPOTHESIS_PICKER_FALLBACK_STATUS,
  HYPOTHESIS_STATUSES,
  childHypothesisType,
  type HypothesisStatus,
} from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { Dialog } from '@/components/dialog/dialog';
import { Dropdown } from '@/components/dropdown/dropdown';
import { inputClass } from '@/components/forms/styles';
import { capitalize } from './incident-field-options';
import { useSession } from '@/lib/auth/session';
import { useCreateHypothesis } from '../api/create-hypothesis';
import { useDeleteHypothesis } from '../api/delete-hypothesis';
import { useUpdateHypothesis } from '../api/update-hypothesis';
import type { Comment } from '../api/types';
import { AddEvidenceDialog } from './add-evidence-dialog';
import { CommentEntry } from './comment-entry';
import { EvidenceItem } from './evidence-item';
import type { HypothesisTreeNode } from './hypothesis-tree';
import { useDebouncedSave } from './use-debounced-save';

export interface HypothesisNodeProps {
  node: HypothesisTreeNode;
  commentsByHypothesis: ReadonlyMap<string, Comment[]>;
  canWrite: boolean;
  /** Comments of every hypothesis open, from the comments=true query flag. */
  expandAll: boolean;
}

const STATUS_OPTIONS = HYPOTHESIS_STATUSES.map((status) => ({ value: status, label: capitalize(status) }));

/** One hypothesis with its evidence, comments and children. */
export function HypothesisNode({ node, commentsByHypothesis, canWrite, expandAll }: HypothesisNodeProps) {
  const { hypothesis } = node;
  const session = useSession();
  const updateHypothesis = useUpdateHypothesis();
  const createHypothesis = useCreateHypothesis();
  const deleteHypothesis = useDeleteHypothesis();
  const [title, setTitle] = useState(hypothesis.title ?? '');
  const [status, setStatus] = useState<HypothesisStatus>(hypothesis.status ?? HYPOTHESIS_PICKER_FALLBACK_STATUS);
  const [commentsOpen, setCommentsOpen] = useState<boolean | null>(null);
  const [isAddingEvidence, setIsAddingEvidence] = useState(false);
  const [childTitle, setChildTitle] = useState<string | null>(null);
  const [isDeleting, setIsDeleting] = useState(false);

  const saveTitle = useDebouncedSave((value: string) => updateHypothesis.mutate({ id: hypothesis.id, changes: { title: value } }), DEBOUNCE_MS.hypothesisTitle);
  const saveStatus = useDebouncedSave(
    (value: HypothesisStatus) => updateHypothesis.mutate({ id: hypothesis.id, changes: { status: value } }),
    DEBOUNCE_MS.hypothesisStatus,
  );

  const childType = childHypothesisType(hypothesis.type);
  const comments = commentsByHypothesis.get(hypothesis.id) ?? [];
  const showComments = commentsOpen ?? expandAll;
  const holdsDefinitionOfDone = hypothesis.evidences.some((evidence) => evidence.definition_of_done);
  const heading = title.trim() === '' ? EMPTY_HYPOTHESIS_TITLE : title;

  const handleStatus = (next: HypothesisStatus) => {
    setStatus(next);
    saveStatus.schedule(next);
  };

  const handleAddChild = (event: FormEvent) => {
    event.preventDefault();
    if (childType === null || childTitle === null) return;
    createHypothesis.mutate(
      { incidentId: hypothesis.incident_id, parentId: hypothesis.id, type: childType, title: childTitle.trim(), createdBy: session.data?.person.id ?? null },
      { onSuccess: () => setChildTitle(null) },
    );
  };

  const handleDisprove = () => {
    setIsDeleting(false);
    setStatus(DISPROVEN_STATUS);
    updateHypothesis.mutate({ id: hypothesis.id, changes: { status: DISPROVEN_STATUS } });
  };

  const isRoot = hypothesis.type === 'root';
  const handleDelete = () => deleteHypothesis.mutate(hypothesis.id, { onSettled: () => setIsDeleting(false) });

  return (
    <li className="flex flex-col gap-2">
      <article
        aria-label={`${capitalize(hypothesis.type)} hypothesis: ${heading}`}
        data-definition-of-done={holdsDefinitionOfDone || undefined}
        className={clsx('rounded-md border bg-white p-3', holdsDefinitionOfDone ? 'border-gray-200 border-t-4 border-t-blue-500' : 'border-gray-200')}
      >
        <header className="flex flex-wrap items-center gap-2">
          <span className="rounded bg-gray-100 px-1.5 py-0.5 text-xs font-medium text-gray-600 capitalize">{hypothesis.type}</span>
          {canWrite ? (
            <input
              aria-label={`${capitalize(hypothesis.type)} title`}
              value={title}
              placeholder={EMPTY_HYPOTHESIS_TITLE}
              onChange={(event) => {
                setTitle(event.target.value);
                saveTitle.schedule(event.target.value);
              }}
              onBlur={saveTitle.flush}
              className="min-w-48 flex-1 rounded px-1 py-0.5 text-sm font-medium text-gray-900 hover:ring-1 hover:ring-gray-300 focus:outline-2 focus:outline-blue-500"
            />
          ) : (
            <h3 className="flex-1 text-sm font-medium text-gray-900">{heading}</h3>
          )}
          <Dropdown label={`Status of ${heading}`} options={STATUS_OPTIONS} value={status} onChange={handleStatus} disabled={!canWrite} className="min-w-28" />
          {canWrite && (
            <Button variant="ghost" className="px-1.5" aria-label={`Delete ${heading}`} title="Delete" onClick={() => setIsDeleting(true)}>
              <Trash2 aria-hidden="true" className="size-4" />
            </Button>
          )}
        </header>
        {hypothesis.evidences.length > 0 && (
          <ul aria-label="Evidence" className="mt-2 flex flex-col gap-1.5">
            {hypothesis.evidences.map((evidence) => (
              <EvidenceItem key={evidence.id} evidence={evidence} canWrite={canWrite} />
            ))}
          </ul>
        )}
        <footer className="mt-2 flex flex-wrap items-center gap-2">
          <Button variant="ghost" className="px-1.5 text-xs" aria-expanded={showComments} onClick={() => setCommentsOpen(!showComments)}>
            {showComments ? <ChevronDown aria-hidden="true" className="size-3.5" /> : <ChevronRight aria-hidden="true" className="size-3.5" />}
            <MessageSquare aria-hidden="true" className="size-3.5" />
            {comments.length} comment{comments.length === 1 ? '' : 's'}
          </Button>
          {canWrite && (
            <Button variant="ghost" className="px-1.5 text-xs" onClick={() => setIsAddingEvidence(true)}>
              <Plus aria-hidden="true" className="size-3.5" />
              Add evidence
            </Button>
          )}
          {canWrite && childType !== null && (
            <Button variant="ghost" className="px-1.5 text-xs" onClick={() => setChildTitle('')}>
              <Plus aria-hidden="true" className="size-3.5" />
              Add {childType}
            </Button>
          )}
        </footer>
        {showComments && (
          <ul aria-label={`Comments on ${heading}`} className="mt-2 flex flex-col gap-2 border-l-2 border-gray-100 pl-3">
            {comments.length === 0 && <li className="text-xs text-gray-500">No comments yet</li>}
            {comments.map((comment) => (
              <CommentEntry key={comment.id} comment={comment} />
            ))}
          </ul>
        )}
        {childTitle !== null && (
          <form onSubmit={handleAddChild} className="mt-2 flex items-center gap-2">
            <input
              aria-label={`New ${childType ?? ''} title`}
              autoFocus
              value={childTitle}
              onChange={(event) => setChildTitle(event.target.value)}
              onKeyDown={(event) => event.key === 'Escape' && setChildTitle(null)}
              className={inputClass(false)}
            />
            <Button type="submit" isPending={createHypothesis.isPending}>
              Add
            </Button>
            <Button variant="secondary" onClick={() => setChildTitle(null)}>
              Cancel
            </Button>
          </form>
        )}
      </article>
      {node.children.length > 0 && (
        <ul className="ml-6 flex flex-col gap-2 border-l border-dashed border-gray-300 pl-3">
          {node.children.map((child) => (
            <HypothesisNode key={child.hypothesis.id} node={child} commentsByHypothesis={commentsByHypothesis} canWrite={canWrite} expandAll={expandAll} />
          ))}
        </ul>
      )}
      {isAddingEvidence && <AddEvidenceDialog open onOpenChange={setIsAddingEvidence} hypothesisId={hypothesis.id} />}
      {isDeleting && (
        <Dialog
          open
          onOpenChange={setIsDeleting}
          title="Delete hypothesis"
          size="very-small"
          expandable={false}
          footer={
            <>
              <Button variant="secondary" onClick={() => setIsDeleting(false)} disabled={deleteHypothesis.isPending}>
                Cancel
              </Button>
              <Button variant="secondary" onClick={handleDisprove} disabled={deleteHypothesis.isPending}>
                Disprove
              </Button>
              {isRoot ? null : (
                <Button variant="danger" onClick={handleDelete} isPending={deleteHypothesis.isPending}>
                  Delete
                </Button>
              )}
            </>
          }
        >
          <p className="text-sm text-gray-700">
            {isRoot
              ? `'${heading}' is the incident's root hypothesis: it holds the incident's comments and evidence and stays with the incident (ADR 0084). Mark it disproven instead?`
              : `Delete '${heading}' with its evidence, comments and the hypotheses under it, or keep it and mark it disproven?`}
          </p>
        </Dialog>
      )}
    </li>
  );
}
