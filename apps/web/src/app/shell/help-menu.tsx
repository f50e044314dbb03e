import { DropdownMenu } from 'radix-ui';
import { BookOpen, CircleHelp } from 'lucide-react';
import { menuContentClass, menuItemClass, topBarButtonClass } from './menu-styles';

/** The server's OpenAPI document is the reference that always matches the running version. */
const DOCS_URL = '/api/openapi.json';

export function HelpMenu() {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger aria-label="Help" className={topBarButtonClass}>
        <CircleHelp aria-hidden="true" className="size-5" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={6} className={menuContentClass}>
          <DropdownMenu.Item asChild className={menuItemClass}>
            <a href={DOCS_URL} target="_blank" rel="noreferrer">
              <BookOpen aria-hidden="true" className="size-4" />
              Docs
            </a>
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
