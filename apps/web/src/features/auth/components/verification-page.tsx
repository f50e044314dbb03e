import { useNavigate } from 'react-router';
import { ApiError } from '@/lib/api/api-error';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useSelfServiceFlow, type FlowLoadPhase } from '../use-self-service-flow';
import { AuthLayout, AuthLink } from './auth-layout';
import { FlowForm } from './flow-form';
import { FlowPlaceholder } from './flow-placeholder';

/** `/verification`: confirms an email address with the emailed code, or shows the result of the emailed link. */
export function VerificationPage() {
  useDocumentTitle('Verification');
  const navigate = useNavigate();
  const verification = useSelfServiceFlow({
    kind: 'verification',
    // Spec 002 §4: a flow of the address that is gone or not this browser's starts over here; a refused creation
    // (bad return_to, verification unavailable) leaves for the home page.
    onLoadError: (error: unknown, phase: FlowLoadPhase) => {
      if (!(error instanceof ApiError)) return false;
      if (phase === 'fetch' && (error.status === 410 || error.status === 403)) {
        verification.restart();
        return true;
      }
      if (phase === 'create' && error.status === 400) {
        navigate('/', { replace: true });
        return true;
      }
      return false;
    },
  });
  const { flow } = verification;
  return (
    <AuthLayout heading="Verify your account" footer={<AuthLink to="/">Go back</AuthLink>}>
      <title>Verification | Opsdeck</title>
      {flow === null ? (
        <FlowPlaceholder subject="The verification form" error={verification.loadError} onRetry={() => verification.restart()} />
      ) : (
        <FlowForm key={verification.formKey} flow={flow} onSubmit={verification.submit} focusFirstError={verification.answered} />
      )}
    </AuthLayout>
  );
}
