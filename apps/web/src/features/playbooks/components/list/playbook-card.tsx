import { Link } from 'react-router';
import type { PlaybookRow } from '../../api/get-playbooks';
import { PlaybookIcon } from './playbook-icon';

function count(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? '' : 's'}`;
}

/** One playbook on /playbooks: the whole card links to its page. */
export function PlaybookCard({ playbook }: { playbook: PlaybookRow }) {
  const actions = playbook.spec.actions?.length ?? 0;
  const parameters = playbook.spec.parameters?.length ?? 0;
  return (
    <Link
      to={`/playbooks/${playbook.id}`}
      className="flex h-full flex-col gap-2 rounded-lg border border-gray-200 bg-white p-3 hover:border-blue-300 hover:shadow-sm focus-visible:outline-2 focus-visible:outline-blue-500"
    >
      <span className="flex min-w-0 items-center gap-2">
        <PlaybookIcon icon={playbook.icon} />
        <span className="min-w-0 truncate font-medium text-gray-900">{playbook.title ?? playbook.name}</span>
      </span>
      {playbook.description && <span className="line-clamp-2 text-sm text-gray-600">{playbook.description}</span>}
      <span className="mt-auto text-xs text-gray-500">
        {count(actions, 'action')} · {count(parameters, 'parameter')}
      </span>
    </Link>
  );
}
