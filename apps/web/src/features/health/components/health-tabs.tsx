import type { ReactNode } from 'react';
import { Tabs } from 'radix-ui';
import { clsx } from 'clsx';

export interface HealthTabsProps {
  tabs: readonly { key: string; count: number }[];
  value: string;
  onChange: (tab: string) => void;
  children: ReactNode;
}

/** Tabs by the Tab By field: 'All' first, then the rest alphabetically, as the server orders them. */
export function HealthTabs({ tabs, value, onChange, children }: HealthTabsProps) {
  return (
    <Tabs.Root value={value} onValueChange={onChange} className="flex min-h-0 flex-1 flex-col">
      <Tabs.List aria-label="Check tabs" className="flex flex-wrap gap-1 border-b border-gray-200">
        {tabs.map((tab) => (
          <Tabs.Trigger
            key={tab.key}
            value={tab.key}
            className={clsx(
              '-mb-px inline-flex items-center gap-1.5 border-b-2 px-3 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-blue-500',
              'border-transparent text-gray-600 hover:text-gray-900 data-[state=active]:border-blue-600 data-[state=active]:text-blue-700',
            )}
          >
            {tab.key}
            <span className="rounded-full bg-gray-100 px-1.5 text-xs text-gray-600">{tab.count}</span>
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      <Tabs.Content value={value} className="flex min-h-0 flex-1 flex-col pt-3 focus-visible:outline-none">
        {children}
      </Tabs.Content>
    </Tabs.Root>
  );
}
