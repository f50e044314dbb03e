import type { ReactNode } from 'react';
import type { Feature, Resource } from '@opsdeck/shared';
import { Guard } from '@/lib/auth/guard';
import { useFeatureFlags } from './use-feature-flags';

export interface FeatureAreaProps {
  /** Also names the area in 'The <feature> area is switched off.' */
  feature: Feature;
  /** Read permission on it is needed to see the area's pages. */
  resource: Resource;
  children: ReactNode;
}

/** The pages of an area: a notice when its feature flag switches it off, the Unauthorized panel without read. */
export function FeatureArea({ feature, resource, children }: FeatureAreaProps) {
  const { isEnabled } = useFeatureFlags();
  if (!isEnabled(feature)) {
    return (
      <p role="alert" className="mt-16 text-center text-sm text-gray-600">
        The {feature} area is switched off.
      </p>
    );
  }
  return (
    <Guard resource={resource} action="read" fallback="unauthorized">
      {children}
    </Guard>
  );
}
