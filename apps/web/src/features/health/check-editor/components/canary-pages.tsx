import { ResourceDetailPage } from '@/lib/settings-resources/components/resource-detail-page';
import { ResourceListPage } from '@/lib/settings-resources/components/resource-list-page';
import type { SettingsResourceKind } from '@/lib/settings-resources/settings-resource-kind';
import { CANARIES_KIND } from '../canaries-kind';
import { CanaryForm } from './canary-form';

/** Health checks with their check form, whose code loads with these pages. */
const CANARIES_WITH_FORM: SettingsResourceKind = { ...CANARIES_KIND, form: CanaryForm };

/** /settings/canaries. */
export function CanaryListPage() {
  return <ResourceListPage kind={CANARIES_WITH_FORM} />;
}

/** /settings/canaries/{id}. */
export function CanaryDetailPage() {
  return <ResourceDetailPage kind={CANARIES_WITH_FORM} />;
}
