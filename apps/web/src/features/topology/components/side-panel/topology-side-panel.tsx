import type { ComponentType } from 'react';
import { Accordion } from 'radix-ui';
import { ChevronDown, PanelRightClose, PanelRightOpen } from 'lucide-react';
import type { Feature, TopologyComponent } from '@opsdeck/shared';
import { Button } from '@/components/button/button';
import { useFeatureFlags } from '@/lib/feature-flags/use-feature-flags';
import { HealthDot } from '@/components/status/health-dot';
import { ChangesSection } from './changes-section';
import { ChecksSection } from './checks-section';
import { ConfigsSection } from './configs-section';
import { DetailsSection } from './details-section';
import { IncidentsSection } from './incidents-section';
import { InsightsSection } from './insights-section';
import { PlaybooksSection } from './playbooks-section';
import { TeamsSection } from './teams-section';

interface PanelSection {
  title: string;
  Body: ComponentType<{ component: TopologyComponent }>;
  /** The feature whose flag hides the section when it is switched off (spec 002 §6). */
  feature?: Feature;
}

/** Spec 001 §2.9, in this order; Details opens first. */
const SECTIONS: readonly PanelSection[] = [
  { title: 'Details', Body: DetailsSection },
  { title: 'Configs', Body: ConfigsSection },
  { title: 'Incidents', Body: IncidentsSection, feature: 'incidents' },
  { title: 'Changes', Body: ChangesSection },
  { title: 'Checks', Body: ChecksSection },
  { title: 'Playbooks', Body: PlaybooksSection },
  { title: 'Teams', Body: TeamsSection },
  { title: 'Insights', Body: InsightsSection },
];

/** The sections of the open panel, less those whose feature is switched off. */
function PanelSections({ component }: { component: TopologyComponent }) {
  const { isEnabled } = useFeatureFlags();
  const sections = SECTIONS.filter((section) => section.feature === undefined || isEnabled(section.feature));
  return (
    <Accordion.Root type="single" collapsible defaultValue={SECTIONS[0]?.title} className="min-h-0 flex-1 overflow-auto">
      {sections.map(({ title, Body }) => (
        <Accordion.Item key={title} value={title} className="border-b border-gray-200">
          <Accordion.Header>
            <Accordion.Trigger className="group flex w-full items-center justify-between px-3 py-2 text-sm font-medium text-gray-800 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-blue-500">
              {title}
              <ChevronDown aria-hidden="true" className="size-4 text-gray-500 transition-transform group-data-[state=open]:rotate-180" />
            </Accordion.Trigger>
          </Accordion.Header>
          <Accordion.Content className="px-3 pb-3">
            <Body component={component} />
          </Accordion.Content>
        </Accordion.Item>
      ))}
    </Accordion.Root>
  );
}

export interface TopologySidePanelProps {
  component: TopologyComponent;
  open: boolean;
  onOpenChange(open: boolean): void;
}

/**
 * The selected component's side panel (spec 001 §2.9): one section open at a time. A closed section is not mounted,
 * so its request is made only when the user opens it. Collapsed, the panel is a narrow rail with the button to open it.
 */
export function TopologySidePanel({ component, open, onOpenChange }: TopologySidePanelProps) {
  if (!open) {
    return (
      <aside aria-label="Component panel" className="flex shrink-0 flex-col items-center border-l border-gray-200 bg-white px-1 py-2">
        <Button variant="ghost" className="px-1.5" aria-label="Show side panel" aria-expanded={false} onClick={() => onOpenChange(true)}>
          <PanelRightOpen aria-hidden="true" className="size-4" />
        </Button>
      </aside>
    );
  }

  return (
    <aside aria-label="Component panel" className="flex min-h-0 w-full shrink-0 flex-col border-l border-gray-200 bg-white md:w-96">
      <header className="flex items-center gap-2 border-b border-gray-200 px-3 py-2">
        <HealthDot status={component.status} />
        <h2 className="min-w-0 flex-1 truncate text-sm font-semibold text-gray-900" title={component.name}>
          {component.text ?? component.name}
        </h2>
        <Button variant="ghost" className="px-1.5" aria-label="Hide side panel" aria-expanded onClick={() => onOpenChange(false)}>
          <PanelRightClose aria-hidden="true" className="size-4" />
        </Button>
      </header>
      <PanelSections component={component} />
    </aside>
  );
}
