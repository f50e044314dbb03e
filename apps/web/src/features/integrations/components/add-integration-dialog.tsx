import { lazy, Suspense } from 'react';
import { DetailSkeleton } from '@/components/detail-page/detail-page';
import { Dialog } from '@/components/dialog/dialog';

// The modal's content carries the chart schemas and the forms of three kinds: loaded when it first opens.
const AddIntegrationOptions = lazy(() => import('./add-integration-options').then((module) => ({ default: module.AddIntegrationOptions })));

export const ADD_INTEGRATION_TITLE = 'Add Integration';

export interface AddIntegrationDialogProps {
  onClose: () => void;
}

/** The Add Integration modal; it scrolls inside itself, so the longest chart values fit a phone. */
export function AddIntegrationDialog({ onClose }: AddIntegrationDialogProps) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={ADD_INTEGRATION_TITLE} size="large">
      <Suspense fallback={<DetailSkeleton />}>
        <AddIntegrationOptions onClose={onClose} />
      </Suspense>
    </Dialog>
  );
}
