import { Link } from 'react-router';
import { DropdownMenu } from 'radix-ui';
import { BookOpen, CircleHelp, FileCode } from 'lucide-react';
import { menuContentClass, menuItemClass, topBarButtonClass } from './menu-styles';

/** Both pages live in the app: the reference is drawn from the running server's OpenAPI document. */
export const DOCS_PATH = '/docs';
export const API_REFERENCE_PATH = '/docs/api';

export function HelpMenu() {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger aria-label="Help" className={topBarButtonClass}>
        <CircleHelp aria-hidden="true" className="size-5" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={6} className={menuContentClass}>
          <DropdownMenu.Item asChild className={menuItemClass}>
            <Link to={DOCS_PATH}>
              <BookOpen aria-hidden="true" className="size-4" />
              Docs
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item asChild className={menuItemClass}>
            <Link to={API_REFERENCE_PATH}>
              <FileCode aria-hidden="true" className="size-4" />
              API Reference
            </Link>
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
