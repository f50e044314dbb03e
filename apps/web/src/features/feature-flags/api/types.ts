export interface FeatureFlagCreator {
  id: string;
  name: string;
  avatar: string | null;
}

/** A row of `properties` (spec 002 §3), with the person who created it. */
export interface FeatureFlag {
  name: string;
  value: string;
  description: string | null;
  source: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  creator: FeatureFlagCreator | null;
}

export interface FeatureFlagInput {
  name: string;
  value: string;
  description: string;
}

/** Flags defined in the server's local configuration are read-only here. */
export function isLocalFlag(flag: Pick<FeatureFlag, 'source'>): boolean {
  return flag.source === 'local';
}
