import { useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { DropdownMenu } from 'radix-ui';
import { Check, Download, LogOut, Monitor, Moon, Settings2, Sun, UserRound } from 'lucide-react';
import { requestJson } from '@/lib/api/http';
import { FRONTEND_VERSION } from '@/lib/app-version';
import { sessionDisplayName, useSession } from '@/lib/auth/session';
import { useLogout } from '@/features/auth/use-logout';
import { THEME_PREFERENCES, type ThemePreference, useTheme } from '@/lib/theme/theme';
import { PREFERENCES_PATH } from '../navigation';
import { KubeconfigDialog } from './kubeconfig-dialog';
import { menuContentClass, menuItemClass } from './menu-styles';

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter((part) => part !== '');
  return parts
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('');
}

const THEME_CHOICES: Record<ThemePreference, { label: string; icon: typeof Sun }> = {
  light: { label: 'Light', icon: Sun },
  dark: { label: 'Dark', icon: Moon },
  system: { label: 'System', icon: Monitor },
};

/** Light / Dark / System as menu radio items: arrow keys move, Enter or Space picks, the current one is checked. */
function ThemeChoices() {
  const { preference, setPreference } = useTheme();
  return (
    <DropdownMenu.RadioGroup
      aria-label="Theme"
      value={preference}
      onValueChange={(value) => {
        if (THEME_PREFERENCES.includes(value as ThemePreference)) setPreference(value as ThemePreference);
      }}
    >
      <DropdownMenu.Label className="px-2 pt-1 pb-0.5 text-xs font-medium text-gray-500">Theme</DropdownMenu.Label>
      {THEME_PREFERENCES.map((choice) => {
        const { label, icon: Icon } = THEME_CHOICES[choice];
        return (
          // Keep the menu open so the person sees the new theme next to the other choices.
          <DropdownMenu.RadioItem key={choice} value={choice} className={menuItemClass} onSelect={(event) => event.preventDefault()}>
            <Icon aria-hidden="true" className="size-4" />
            <span className="flex-1">{label}</span>
            <DropdownMenu.ItemIndicator>
              <Check aria-hidden="true" className="size-4 text-brand-600" />
            </DropdownMenu.ItemIndicator>
          </DropdownMenu.RadioItem>
        );
      })}
    </DropdownMenu.RadioGroup>
  );
}

function useBackendVersion() {
  return useQuery({
    queryKey: ['version'],
    queryFn: () => requestJson<{ version: string }>('/api/version', { silent: true }),
    staleTime: Infinity,
  });
}

export function UserMenu() {
  const { data: session } = useSession();
  const backend = useBackendVersion();
  const { signOut, isSigningOut } = useLogout();
  const [kubeconfigOpen, setKubeconfigOpen] = useState(false);

  if (session === undefined) return null;
  const name = sessionDisplayName(session);
  const avatar = session.person.avatar;
  const backendVersion = backend.data?.version ?? (backend.isError ? 'unknown' : '…');

  return (
    <>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger className="flex size-9 items-center justify-center overflow-hidden rounded-full bg-gray-200 text-sm font-semibold text-gray-700 hover:ring-2 hover:ring-gray-300 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600">
          {/* Named by words of its own rather than an aria-label over the initials, which a name must contain (WCAG 2.5.3). */}
          <span className="sr-only">User menu</span>
          {avatar !== null && avatar !== '' ? (
            <img src={avatar} alt="" className="size-full object-cover" />
          ) : (
            <span aria-hidden="true">{initials(name) || <UserRound className="size-5" />}</span>
          )}
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content align="end" sideOffset={6} className={menuContentClass}>
            <DropdownMenu.Label className="px-2 py-1.5 font-medium text-gray-900">Hi {name}</DropdownMenu.Label>
            <DropdownMenu.Separator className="my-1 h-px bg-gray-200" />
            <DropdownMenu.Item asChild className={menuItemClass}>
              <Link to="/profile-settings">
                <UserRound aria-hidden="true" className="size-4" />
                Your Profile
              </Link>
            </DropdownMenu.Item>
            <DropdownMenu.Item asChild className={menuItemClass}>
              <Link to={PREFERENCES_PATH}>
                <Settings2 aria-hidden="true" className="size-4" />
                Preferences
              </Link>
            </DropdownMenu.Item>
            <DropdownMenu.Item className={menuItemClass} onSelect={() => setKubeconfigOpen(true)}>
              <Download aria-hidden="true" className="size-4" />
              Download kubeconfig
            </DropdownMenu.Item>
            <DropdownMenu.Separator className="my-1 h-px bg-gray-200" />
            <ThemeChoices />
            <DropdownMenu.Separator className="my-1 h-px bg-gray-200" />
            <DropdownMenu.Label className="px-2 py-1 text-xs text-gray-500">
              Frontend: {FRONTEND_VERSION} | Backend: {backendVersion}
            </DropdownMenu.Label>
            <DropdownMenu.Separator className="my-1 h-px bg-gray-200" />
            <DropdownMenu.Item className={menuItemClass} disabled={isSigningOut} onSelect={() => void signOut()}>
              <LogOut aria-hidden="true" className="size-4" />
              Sign out
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <KubeconfigDialog open={kubeconfigOpen} onOpenChange={setKubeconfigOpen} />
    </>
  );
}
