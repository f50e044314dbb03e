import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { EMAIL_PATTERN, formatDate, isRole, USER_EMAIL_MAX_LENGTH, USER_FORM_MESSAGES, USER_NAME_MAX_LENGTH, type Role } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { CopyButton } from '@/components/button/copy-button';
import { inputClass } from '@/components/forms/styles';
import { Dialog } from '@/components/dialog/dialog';
import { SelectField } from '@/components/forms/select-field';
import { TextField } from '@/components/forms/text-field';
import { useInviteUser } from '../api/invite-user';
import { ROLE_OPTIONS } from './role-options';

/** Spec 002 §5, with the same sentences the server answers: the form says them before anything is sent. */
const schema = z.object({
  firstName: z.string().trim().min(1, USER_FORM_MESSAGES.firstName).max(USER_NAME_MAX_LENGTH, USER_FORM_MESSAGES.firstName),
  lastName: z.string().trim().min(1, USER_FORM_MESSAGES.lastName).max(USER_NAME_MAX_LENGTH, USER_FORM_MESSAGES.lastName),
  email: z
    .string()
    .trim()
    .min(1, USER_FORM_MESSAGES.email)
    .max(USER_EMAIL_MAX_LENGTH, USER_FORM_MESSAGES.emailFormat)
    .regex(EMAIL_PATTERN, USER_FORM_MESSAGES.emailFormat),
  role: z.string().refine((value): value is Role => isRole(value), USER_FORM_MESSAGES.role),
});
type InviteFormValues = z.input<typeof schema>;

export interface InviteUserDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** 'Invite User' (spec 002 §2.2): a new address gets an account and a mail to set a password; a known one the role. */
export function InviteUserDialog({ open, onOpenChange }: InviteUserDialogProps) {
  const inviteUser = useInviteUser();
  // Without a mail server the invitation is the link itself, for the admin to hand over (#34 item 19).
  const [handOver, setHandOver] = useState<{ name: string; url: string; expiresAt: string } | null>(null);
  const { control, handleSubmit } = useForm<InviteFormValues>({
    resolver: zodResolver(schema),
    defaultValues: { firstName: '', lastName: '', email: '', role: '' },
  });

  const handleValid = (values: InviteFormValues) => {
    const role = values.role;
    if (!isRole(role)) return;
    inviteUser.mutate(
      { firstName: values.firstName.trim(), lastName: values.lastName.trim(), email: values.email.trim(), role },
      {
        onSuccess: (result) => {
          if (result.link === null || result.link === undefined) onOpenChange(false);
          else setHandOver({ name: `${values.firstName.trim()} ${values.lastName.trim()}`, ...result.link });
        },
      },
    );
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Invite User"
      size="small"
      expandable={false}
      footer={
        handOver !== null ? (
          <Button onClick={() => onOpenChange(false)}>Done</Button>
        ) : (
          <>
            <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={inviteUser.isPending}>
              Cancel
            </Button>
            <Button type="submit" form="invite-user-form" isPending={inviteUser.isPending}>
              Invite
            </Button>
          </>
        )
      }
    >
      {handOver !== null ? (
        <div className="flex flex-col gap-2 text-sm text-gray-700">
          <p>
            No mail server is configured (OPSDECK_SMTP_URL), so no mail was sent. Give {handOver.name} this link to set a password; it works once,
            until {formatDate(handOver.expiresAt, 'datetime')}.
          </p>
          <div className="flex items-center gap-2">
            <input aria-label="Invitation link" readOnly value={handOver.url} onFocus={(event) => event.currentTarget.select()} className={`${inputClass} flex-1 font-mono text-xs`} />
            <CopyButton text={handOver.url} label="Copy invitation link" />
          </div>
        </div>
      ) : (
        <form id="invite-user-form" noValidate onSubmit={handleSubmit(handleValid)} className="flex flex-col gap-3">
          <TextField control={control} name="firstName" label="First Name" required autoFocus />
          <TextField control={control} name="lastName" label="Last Name" required />
          <TextField control={control} name="email" label="Email" type="email" required />
          <SelectField control={control} name="role" label="Role" options={ROLE_OPTIONS} required placeholder="Select a role…" />
        </form>
      )}
    </Dialog>
  );
}
