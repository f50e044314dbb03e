import { formatDate, formatRelativeTime, mentionsToPlainText } from '@opsdeck/shared';
import { Avatar } from '@/components/avatar/avatar';
import type { Comment } from '../api/types';

export function CommentEntry({ comment }: { comment: Comment }) {
  const author = comment.author?.name ?? comment.external_created_by ?? 'Unknown';
  return (
    <li className="flex gap-2 text-sm" aria-busy={comment.pending || undefined}>
      <Avatar name={author} src={comment.author?.avatar} size="sm" />
      <div className="min-w-0 flex-1">
        <p className="flex items-center gap-2 text-xs text-gray-500">
          <span className="font-medium text-gray-800">{author}</span>
          {comment.responder?.team && <span className="rounded bg-gray-100 px-1">{comment.responder.team.name}</span>}
          <time dateTime={comment.created_at} title={formatDate(comment.created_at)}>
            {comment.pending ? 'sending…' : `${formatRelativeTime(comment.created_at)} ago`}
          </time>
        </p>
        <p className="break-words whitespace-pre-wrap text-gray-800">{mentionsToPlainText(comment.comment)}</p>
      </div>
    </li>
  );
}
