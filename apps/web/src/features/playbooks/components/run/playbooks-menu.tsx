import { Suspense, useState } from 'react';
import { DropdownMenu } from 'radix-ui';
import { BookOpenCheck, ChevronDown, Play } from 'lucide-react';
import type { RunnablePlaybook } from '@opsdeck/shared';
import { usePermissions } from '@/lib/auth/permissions';
import { lazyPage } from '@/lib/lazy-page';
import type { PlaybooksMenuProps } from '@/lib/playbook-run/playbook-run-slot';
import { useRunnablePlaybooksQuery } from '../../api/get-runnable-playbooks';
import { PlaybookIcon } from '../list/playbook-icon';

// The menu sits in every check modal, config page and topology panel; the form behind it loads when a playbook is
// chosen, so those screens do not wait for its code.
const RunPlaybookModal = lazyPage(() => import('./run-playbook-modal').then((module) => module.RunPlaybookModal));

export const NO_PLAYBOOKS_MESSAGE = 'No playbooks';

const TRIGGER_CLASSES = {
  menu: 'inline-flex items-center gap-1.5 rounded-md bg-white px-3 py-1.5 text-sm font-medium text-gray-800 ring-1 ring-gray-300 ring-inset hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-500',
  button:
    'inline-flex items-center gap-1.5 rounded-md bg-blue-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-500',
} as const;
const MENU_CONTENT = 'z-50 max-h-80 min-w-56 overflow-auto rounded-md border border-gray-200 bg-white p-1 text-sm text-gray-700 shadow-lg';
const MENU_ITEM =
  'flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 outline-none select-none data-[disabled]:cursor-default data-[disabled]:text-gray-500 data-[highlighted]:bg-gray-100 data-[highlighted]:text-gray-900';

/**
 * The playbooks offered for an item (spec 001 §2.3, §6): only for users who may request runs. The list is asked when
 * the menu opens; choosing one opens Run Playbook with the item fixed as its target.
 */
export function PlaybooksMenu({ target, variant = 'menu' }: PlaybooksMenuProps) {
  const { can } = usePermissions();
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<RunnablePlaybook | null>(null);
  const allowed = can('playbook_runs', 'write');
  const playbooks = useRunnablePlaybooksQuery(target.type, target.id, allowed && open);
  if (!allowed) return null;

  let items;
  if (playbooks.isError) {
    items = (
      <DropdownMenu.Item disabled className={MENU_ITEM}>
        Playbooks could not be loaded
      </DropdownMenu.Item>
    );
  } else if (playbooks.isPending) {
    items = (
      <DropdownMenu.Item disabled className={MENU_ITEM}>
        Loading…
      </DropdownMenu.Item>
    );
  } else if (playbooks.data.length === 0) {
    items = (
      <DropdownMenu.Item disabled className={MENU_ITEM}>
        {NO_PLAYBOOKS_MESSAGE}
      </DropdownMenu.Item>
    );
  } else {
    items = playbooks.data.map((playbook) => (
      <DropdownMenu.Item key={playbook.id} className={MENU_ITEM} onSelect={() => setChosen(playbook)}>
        <PlaybookIcon icon={playbook.icon} className="size-4" />
        <span className="min-w-0 truncate">{playbook.title ?? playbook.name}</span>
      </DropdownMenu.Item>
    ));
  }

  return (
    <>
      <DropdownMenu.Root open={open} onOpenChange={setOpen}>
        <DropdownMenu.Trigger className={TRIGGER_CLASSES[variant]}>
          {variant === 'menu' ? (
            <>
              <BookOpenCheck aria-hidden="true" className="size-4" />
              Playbooks
              <ChevronDown aria-hidden="true" className="size-4" />
            </>
          ) : (
            <>
              <Play aria-hidden="true" className="size-4" />
              Run
            </>
          )}
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content align="end" sideOffset={4} className={MENU_CONTENT}>
            {items}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {chosen !== null && (
        <Suspense fallback={null}>
          <RunPlaybookModal playbook={chosen} target={target} onClose={() => setChosen(null)} />
        </Suspense>
      )}
    </>
  );
}
