import { Link } from 'react-router';
import { ChevronRight } from 'lucide-react';
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
  return (
    <nav aria-label="Breadcrumb">
      <ol className="flex items-center gap-1 text-lg font-semibold text-gray-900">
        <li className="text-gray-500">Settings</li>
        <li aria-hidden="true">
          <ChevronRight className="size-4 text-gray-400" />
        </li>
        <li>
          <Link to={resourceListPath(kind)} className="text-blue-700 hover:underline">
            {kind.title}
          </Link>
        </li>
        <li aria-hidden="true">
          <ChevronRight className="size-4 text-gray-400" />
        </li>
        <li>
          <h1 aria-current="page">{current}</h1>
        </li>
      </ol>
    </nav>
  );
}
