import { SettingsTrail } from '@/components/settings-page-header/settings-page-header';
import { resourceListPath, type SettingsResourceKind } from '../settings-resource-kind';

export interface SettingsBreadcrumbProps {
  /** The settings page the trail passes through: its title and, by table, its list. */
  kind: Pick<SettingsResourceKind, 'table' | 'title'>;
  /** The resource's name on its detail page. */
  current?: string;
}

export function SettingsBreadcrumb({ kind, current }: SettingsBreadcrumbProps) {
  if (current === undefined) return <SettingsTrail title={kind.title} />;
  return <SettingsTrail title={current} parent={{ label: kind.title, to: resourceListPath(kind) }} />;
}
