import { Toaster } from 'sonner';
import { TOAST_DURATION_MS } from '@opsdeck/shared';

/** The one toast outlet of the app: top right, five seconds (spec 000 §8). */
export function AppToaster() {
  return <Toaster position="top-right" duration={TOAST_DURATION_MS} richColors closeButton />;
}
