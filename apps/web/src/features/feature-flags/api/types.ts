import type { TableRow } from '@opsdeck/shared';

export type FeatureFlagCreator = Pick<TableRow<'people'>, 'id' | 'name' | 'avatar'>;

/** A row of `properties` (spec 002 §3), with the person who created it. */
export type FeatureFlag = TableRow<'properties'> & { creator: FeatureFlagCreator | null };

export interface FeatureFlagInput {
  name: string;
  value: string;
  description: string;
}

/** Flags defined in the server's local configuration are read-only here. */
export function isLocalFlag(flag: Pick<FeatureFlag, 'source'>): boolean {
  return flag.source === 'local';
}

/** Flags people create are stored with this source; the server's properties file uses 'local'. */
export const UI_SOURCE = 'UI';

/** Where a flag comes from; a row written without a source was written by a person, through the UI or the API. */
export function flagSource(flag: Pick<FeatureFlag, 'source'>): string {
  return flag.source === null || flag.source.trim() === '' ? UI_SOURCE : flag.source;
}
