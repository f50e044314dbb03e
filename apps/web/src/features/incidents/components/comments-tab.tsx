import { useId, useMemo, useState, type FormEvent } from 'react';
import { SendHorizontal } from 'lucide-react';
import { EMPTY_HYPOTHESIS_TITLE, INCIDENT_MESSAGES } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { Dropdown } from '@/components/dropdown/dropdown';
import { toastError } from '@/components/toast/toast';
import { useSession } from '@/lib/auth/session';
import { useCreateComment } from '../api/create-comment';
import type { Comment, Evidence, IncidentDetail } from '../api/types';
import { CommentEntry } from './comment-entry';
import { EvidenceItem } from './evidence-item';

type TimelineEntry = { kind: 'comment'; at: string; comment: Comment } | { kind: 'evidence'; at: string; evidence: Evidence };

function timeline(incident: IncidentDetail): TimelineEntry[] {
  const entries: TimelineEntry[] = [
    ...incident.comments.map((comment): TimelineEntry => ({ kind: 'comment', at: comment.created_at, comment })),
    ...incident.hypotheses.flatMap((hypothesis) => hypothesis.evidences.map((evidence): TimelineEntry => ({ kind: 'evidence', at: evidence.created_at, evidence }))),
  ];
  return entries.sort((a, b) => a.at.localeCompare(b.at));
}

/** The timeline of comments and evidence, with a one-line box to comment on a hypothesis. */
export function CommentsTab({ incident, canComment, canWriteEvidence }: { incident: IncidentDetail; canComment: boolean; canWriteEvidence: boolean }) {
  const session = useSession();
  const createComment = useCreateComment(incident.id);
  const [hypothesisId, setHypothesisId] = useState<string | undefined>(undefined);
  const [text, setText] = useState('');
  // Which field a refused send is about, said beside it (and not only in a passing toast) for a screen reader (#36).
  const [problem, setProblem] = useState<{ field: 'hypothesis' | 'comment'; message: string } | null>(null);
  const problemId = useId();
  const entries = useMemo(() => timeline(incident), [incident]);
  const hypothesisOptions = incident.hypotheses.map((hypothesis) => ({
    value: hypothesis.id,
    label: hypothesis.title?.trim() || EMPTY_HYPOTHESIS_TITLE,
  }));

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (createComment.isPending) return;
    if (hypothesisId === undefined) {
      setProblem({ field: 'hypothesis', message: INCIDENT_MESSAGES.commentNeedsHypothesis });
      toastError(INCIDENT_MESSAGES.commentNeedsHypothesis);
      return;
    }
    if (text.trim() === '') {
      setProblem({ field: 'comment', message: INCIDENT_MESSAGES.commentNeedsText });
      toastError(INCIDENT_MESSAGES.commentNeedsText);
      return;
    }
    setProblem(null);
    const person = session.data?.person;
    createComment.mutate({
      id: crypto.randomUUID(),
      incidentId: incident.id,
      hypothesisId,
      comment: text.trim(),
      author: person ? { id: person.id, name: person.name, avatar: person.avatar } : null,
    });
    setText('');
  };

  return (
    <div className="flex flex-col gap-3">
      {entries.length === 0 ? (
        <p className="text-sm text-gray-500">No comments or evidence yet</p>
      ) : (
        <ol aria-label="Timeline" className="flex flex-col gap-3">
          {entries.map((entry) =>
            entry.kind === 'comment' ? (
              <CommentEntry key={entry.comment.id} comment={entry.comment} />
            ) : (
              <EvidenceItem key={entry.evidence.id} evidence={entry.evidence} canWrite={canWriteEvidence} />
            ),
          )}
        </ol>
      )}
      {canComment && (
        <form onSubmit={handleSubmit} className="flex flex-wrap items-center gap-2 border-t border-gray-200 pt-3">
          <Dropdown
            label="Hypothesis"
            placeholder="Select hypothesis"
            options={hypothesisOptions}
            value={hypothesisId}
            onChange={(value) => {
              setHypothesisId(value);
              if (problem?.field === 'hypothesis') setProblem(null);
            }}
            invalid={problem?.field === 'hypothesis'}
            {...(problem?.field === 'hypothesis' ? { describedBy: problemId } : {})}
            className="max-w-56"
          />
          <input
            aria-label="Comment"
            placeholder="Add a comment"
            value={text}
            aria-invalid={problem?.field === 'comment' || undefined}
            aria-describedby={problem?.field === 'comment' ? problemId : undefined}
            onChange={(event) => {
              setText(event.target.value);
              if (problem?.field === 'comment') setProblem(null);
            }}
            className="h-8 min-w-0 flex-1 rounded-md bg-white px-2.5 text-sm ring-1 ring-gray-300 ring-inset focus:outline-2 focus:outline-blue-500"
          />
          <Button type="submit" aria-label="Send comment" disabled={createComment.isPending}>
            <SendHorizontal aria-hidden="true" className="size-4" />
          </Button>
          {problem !== null && (
            <p id={problemId} className="w-full text-sm text-red-700">
              {problem.message}
            </p>
          )}
        </form>
      )}
    </div>
  );
}
