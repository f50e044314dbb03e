import { NavLink } from 'react-router';
import { clsx } from 'clsx';

const TABS = [
  { to: '/catalog', label: 'Catalog' },
  { to: '/catalog/changes', label: 'Changes' },
  { to: '/catalog/insights', label: 'Insights' },
  { to: '/catalog/scrapers', label: 'Scrapers' },
] as const;

/** The catalog's sibling pages as tab links (spec 002 §2.1); NavLink marks the open one with aria-current="page". */
export function CatalogTabs() {
  return (
    <nav aria-label="Catalog pages" className="-mx-4 overflow-x-auto border-b border-gray-200 px-4">
      <ul className="flex gap-1">
        {TABS.map((tab) => (
          <li key={tab.to}>
            <NavLink
              to={tab.to}
              // Only the exact path: /catalog/changes must not also mark Catalog as the open tab.
              end
              className={({ isActive }) =>
                clsx(
                  'inline-block border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-blue-500',
                  isActive ? 'border-blue-600 text-blue-700' : 'border-transparent text-gray-600 hover:border-gray-300 hover:text-gray-900',
                )
              }
            >
              {tab.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
