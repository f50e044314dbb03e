import { useState } from 'react';
import { clsx } from 'clsx';
import { ChevronDown, ChevronRight } from 'lucide-react';
import type { IncidentDetail } from '../api/types';
import { ChangelogSection } from './changelog-section';
import { DefinitionOfDoneSection } from './definition-of-done-section';
import { DetailsSection } from './details-section';

type SectionName = 'details' | 'definition-of-done' | 'changelog';

const TITLES: Record<SectionName, string> = { details: 'Details', 'definition-of-done': 'Definition of done', changelog: 'Changelog' };

export interface SidePanelProps {
  incident: IncidentDetail;
  canWriteIncident: boolean;
  canWriteEvidence: boolean;
  canWriteResponders: boolean;
}

/** Three collapsible sections; opening one closes the others. */
export function SidePanel({ incident, canWriteIncident, canWriteEvidence, canWriteResponders }: SidePanelProps) {
  const [open, setOpen] = useState<SectionName | null>('details');

  const body = (name: SectionName) => {
    switch (name) {
      case 'details':
        return <DetailsSection incident={incident} canWrite={canWriteIncident} canWriteResponders={canWriteResponders} />;
      case 'definition-of-done':
        return <DefinitionOfDoneSection incident={incident} canWrite={canWriteEvidence} />;
      case 'changelog':
        return <ChangelogSection incidentId={incident.id} />;
    }
  };

  return (
    <aside aria-label="Incident side panel" className="flex flex-col divide-y divide-gray-200 rounded-md border border-gray-200 bg-white">
      {(Object.keys(TITLES) as SectionName[]).map((name) => {
        const isOpen = open === name;
        return (
          <section key={name} aria-labelledby={`panel-${name}`}>
            <h2>
              <button
                id={`panel-${name}`}
                type="button"
                aria-expanded={isOpen}
                aria-controls={`panel-${name}-body`}
                onClick={() => setOpen(isOpen ? null : name)}
                className={clsx('flex w-full items-center gap-1.5 px-3 py-2 text-left text-sm font-semibold text-gray-900 hover:bg-gray-50')}
              >
                {isOpen ? <ChevronDown aria-hidden="true" className="size-4" /> : <ChevronRight aria-hidden="true" className="size-4" />}
                {TITLES[name]}
              </button>
            </h2>
            {isOpen && (
              <div id={`panel-${name}-body`} className="px-3 pb-3">
                {body(name)}
              </div>
            )}
          </section>
        );
      })}
    </aside>
  );
}
