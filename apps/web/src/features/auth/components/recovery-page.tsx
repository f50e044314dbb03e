import { useDocumentTitle } from '@/lib/use-document-title';
import { useSelfServiceFlow } from '../use-self-service-flow';
import { AuthLayout, AuthLink } from './auth-layout';
import { FlowForm } from './flow-form';
import { FlowPlaceholder } from './flow-placeholder';

/**
 * `/recovery`: an emailed code signs the person in; the identity service then sends the browser to the settings page
 * (422 browser_location_change_required) to choose a new password.
 */
export function RecoveryPage() {
  useDocumentTitle('Recovery');
  const recovery = useSelfServiceFlow({ kind: 'recovery' });
  const { flow } = recovery;
  return (
    <AuthLayout heading="Recover account" footer={<AuthLink to="/">Go back</AuthLink>}>
      <title>Recovery | Opsdeck</title>
      {flow === null ? (
        <FlowPlaceholder subject="The recovery form" error={recovery.loadError} onRetry={() => recovery.restart()} />
      ) : (
        <FlowForm key={recovery.formKey} flow={flow} onSubmit={recovery.submit} focusFirstError={recovery.answered} />
      )}
    </AuthLayout>
  );
}
