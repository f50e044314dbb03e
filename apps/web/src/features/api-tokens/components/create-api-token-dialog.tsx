import { useState, type FormEvent } from 'react';
import { ROLE_RANK, ROLES, highestRole, type Role } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { CopyButton } from '@/components/button/copy-button';
import { Dialog } from '@/components/dialog/dialog';
import { Dropdown, type DropdownOption } from '@/components/dropdown/dropdown';
import { FormField } from '@/components/forms/form-field';
import { inputClass } from '@/components/forms/styles';
import { errorMessage } from '@/components/toast/toast';
import { EXPIRY_CHOICES, useCreateApiToken, type CreatedApiToken, type ExpiryChoice } from '../api/create-api-token';

export const TOKEN_NAME_MAX_LENGTH = 100;

const EXPIRY_OPTIONS: DropdownOption[] = EXPIRY_CHOICES.map((days) => ({ value: String(days), label: days === 365 ? '1 year' : `${days} days` }));

/** The roles a person may give a token: theirs and every one below it, highest first. */
export function tokenRoleChoices(ownRoles: readonly string[]): Role[] {
  const highest = ROLE_RANK[highestRole(ownRoles)];
  return ROLES.filter((role) => ROLE_RANK[role] <= highest);
}

export interface CreateApiTokenDialogProps {
  ownRoles: readonly string[];
  onOpenChange: (open: boolean) => void;
}

function CreatedToken({ created, onDone }: { created: CreatedApiToken; onDone: () => void }) {
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-gray-700">
        Copy the token <strong>{created.name}</strong> now. It is shown only this once: Opsdeck keeps just a hash of it.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <code data-testid="api-token-value" className="min-w-0 flex-1 rounded bg-gray-100 px-2 py-1.5 font-mono text-xs break-all text-gray-900">
          {created.token}
        </code>
        <CopyButton text={created.token} label="Copy API token" />
      </div>
      <p className="text-xs text-gray-500">
        Send it as <code className="font-mono">Authorization: Bearer {'<token>'}</code>. It acts as you with the {created.role} role until{' '}
        {new Date(created.expires_at).toLocaleDateString()}.
      </p>
      <div className="flex justify-end">
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}

/** Creates a personal API token: a name, a role no higher than one's own, an expiry; then shows the token once. */
export function CreateApiTokenDialog({ ownRoles, onOpenChange }: CreateApiTokenDialogProps) {
  const roles = tokenRoleChoices(ownRoles);
  const roleOptions: DropdownOption[] = roles.map((role) => ({ value: role, label: role }));
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>(roles[roles.length - 1] ?? 'viewer');
  const [expiresInDays, setExpiresInDays] = useState<ExpiryChoice>(30);
  const [nameError, setNameError] = useState<string | undefined>(undefined);
  const create = useCreateApiToken();
  const created = create.data;

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === '') {
      setNameError('This field is required');
      return;
    }
    if (trimmed.length > TOKEN_NAME_MAX_LENGTH) {
      setNameError(`At most ${TOKEN_NAME_MAX_LENGTH} characters`);
      return;
    }
    setNameError(undefined);
    create.mutate({ name: trimmed, role, expiresInDays });
  };

  return (
    <Dialog open onOpenChange={onOpenChange} title={created === undefined ? 'Create API token' : 'API token created'} size="small" expandable={false}>
      {created !== undefined ? (
        <CreatedToken created={created} onDone={() => onOpenChange(false)} />
      ) : (
        <form className="flex flex-col gap-3" onSubmit={handleSubmit} noValidate>
          <FormField id="api-token-name" label="Name" required hint="What the token is for, e.g. the script that uses it" error={nameError}>
            <input
              id="api-token-name"
              className={inputClass(nameError !== undefined)}
              value={name}
              maxLength={TOKEN_NAME_MAX_LENGTH + 20}
              autoFocus
              aria-invalid={nameError !== undefined}
              aria-describedby={nameError === undefined ? 'api-token-name-hint' : 'api-token-name-error'}
              onChange={(event) => setName(event.target.value)}
            />
          </FormField>
          <FormField id="api-token-role" label="Role" required hint="The token can do what this role may, never more than you can">
            <Dropdown id="api-token-role" options={roleOptions} value={role} onChange={(value) => setRole(roles.find((known) => known === value) ?? role)} />
          </FormField>
          <FormField id="api-token-expiry" label="Expires in" required>
            <Dropdown
              id="api-token-expiry"
              options={EXPIRY_OPTIONS}
              value={String(expiresInDays)}
              onChange={(value) => setExpiresInDays(EXPIRY_CHOICES.find((days) => String(days) === value) ?? expiresInDays)}
            />
          </FormField>
          {create.isError && (
            <p role="alert" className="text-sm text-red-700">
              {errorMessage(create.error)}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" isPending={create.isPending}>
              Create token
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
