import { catalogKeys } from '../../api/keys';
import type { RelatedConfigsArgs } from '../relationship-params';

/** Under the catalog keys, so an invalidation of the catalog refreshes an open Relationships tab too. */
export const relationshipKeys = {
  all: [...catalogKeys.all, 'relationships'] as const,
  related: (args: RelatedConfigsArgs) => [...relationshipKeys.all, 'related', args] as const,
  manualLinks: (configId: string) => [...relationshipKeys.all, 'manual-links', configId] as const,
  item: (configId: string) => [...relationshipKeys.all, 'item', configId] as const,
};
