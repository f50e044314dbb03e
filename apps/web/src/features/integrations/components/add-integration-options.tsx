import { useId, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ChevronLeft, Cloud, Container, Flame, GitBranch, LayoutGrid, Network, ScanSearch, ScrollText, Server, type LucideIcon } from 'lucide-react';
import { usePermissions } from '@/lib/auth/permissions';
import { useSession } from '@/lib/auth/session';
import { useFeatureFlags } from '@/lib/feature-flags/use-feature-flags';
import { useCreateResource } from '@/lib/settings-resources/api/create-resource';
import type { SettingsResourceInput } from '@/lib/settings-resources/api/types';
import { ResourceForm } from '@/lib/settings-resources/components/resource-form';
import type { SettingsResourceKind } from '@/lib/settings-resources/settings-resource-kind';
import { CONFIG_SCRAPERS_KIND, LOGGING_BACKENDS_KIND, TOPOLOGIES_KIND } from '../integration-kinds';
import { integrationKeys } from '../api/keys';
import type { ChartDefinition } from '../charts/chart-definition';
import { GITOPS_CHARTS } from '../charts/gitops-charts';
import { ChartInstallPanel } from './chart-install-panel';

interface DirectOption {
  label: string;
  description: string;
  icon: LucideIcon;
  kind: SettingsResourceKind;
}

const CUSTOM_TOPOLOGY: DirectOption = { label: 'Custom Topology', description: 'Components and their health from a topology spec', icon: Network, kind: TOPOLOGIES_KIND };
const CATALOG_SCRAPER: DirectOption = { label: 'Catalog Scraper', description: 'Configuration items from files, SQL, HTTP and more', icon: ScanSearch, kind: CONFIG_SCRAPERS_KIND };
const LOG_BACKENDS: DirectOption = { label: 'Log Backends', description: 'Where the logs of components and catalog items are read', icon: ScrollText, kind: LOGGING_BACKENDS_KIND };

const CHART_ICONS: Readonly<Record<string, LucideIcon>> = {
  'opsdeck-aws': Cloud,
  'opsdeck-azure': Cloud,
  'opsdeck-prometheus': Flame,
  'opsdeck-flux': GitBranch,
  'opsdeck-kubernetes': Container,
  opsdeck: Server,
};

type Choice = { kind: 'chart'; chart: ChartDefinition } | { kind: 'direct'; option: DirectOption };

const OPTION_CLASS =
  'flex h-full w-full items-start gap-3 rounded-md p-3 text-left ring-1 ring-gray-200 hover:bg-gray-50 hover:ring-blue-300 focus-visible:outline-2 focus-visible:outline-blue-500';

interface OptionButtonProps {
  label: string;
  description: string;
  icon: LucideIcon;
  badge?: string;
  onSelect: () => void;
}

function OptionButton({ label, description, icon: Icon, badge, onSelect }: OptionButtonProps) {
  const descriptionId = useId();
  return (
    <button type="button" aria-label={label} aria-describedby={descriptionId} onClick={onSelect} className={OPTION_CLASS}>
      <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-gray-500" />
      <span className="flex min-w-0 flex-col gap-0.5">
        <span className="flex flex-wrap items-center gap-2 text-sm font-medium text-gray-900">
          {label}
          {badge && <span className="rounded bg-gray-100 px-1.5 py-0.5 font-mono text-[11px] font-normal text-gray-600">{badge}</span>}
        </span>
        <span id={descriptionId} className="text-xs text-gray-600">
          {description}
        </span>
      </span>
    </button>
  );
}

function OptionGroup({ title, hint, children }: { title: string; hint: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2">
      <div>
        <h3 id={headingId} className="text-sm font-semibold text-gray-900">
          {title}
        </h3>
        <p className="text-xs text-gray-600">{hint}</p>
      </div>
      <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">{children}</ul>
    </section>
  );
}

function DirectForm({ option, onBack, onCreated }: { option: DirectOption; onBack: () => void; onCreated: () => void }) {
  const { can } = usePermissions();
  const session = useSession();
  const createResource = useCreateResource();
  const queryClient = useQueryClient();

  const handleSubmit = (input: SettingsResourceInput) => {
    createResource.mutate(
      { kind: option.kind, input, createdBy: session.data?.person.id ?? null },
      {
        onSuccess: async () => {
          await queryClient.invalidateQueries({ queryKey: integrationKeys.all });
          onCreated();
        },
      },
    );
  };

  return (
    <ResourceForm
      kind={option.kind}
      canWrite={can(option.kind.resource, 'write')}
      isSaving={createResource.isPending}
      onSubmit={handleSubmit}
      onCancel={onBack}
      saveError={createResource.error}
    />
  );
}

export interface AddIntegrationOptionsProps {
  /** Closes the modal, after a direct integration is created. */
  onClose: () => void;
}

/**
 * The Add Integration modal's content (spec 001 §2.7): a GitOps group of charts, installed by Flux or Helm with values
 * checked against the chart's schema, and a Direct group that creates a topology, scraper or log backend here.
 */
export function AddIntegrationOptions({ onClose }: AddIntegrationOptionsProps) {
  const [choice, setChoice] = useState<Choice | null>(null);
  const flags = useFeatureFlags();
  // Hidden until the flags are known, so the option does not flash up for an organization that switched logs off.
  const direct = [CUSTOM_TOPOLOGY, CATALOG_SCRAPER, ...(!flags.isLoading && flags.isEnabled('logs') ? [LOG_BACKENDS] : [])];
  const heading = choice === null ? null : choice.kind === 'chart' ? choice.chart.label : choice.option.label;

  return (
    <>
      {choice === null ? (
        <div className="flex flex-col gap-5">
          <OptionGroup title="GitOps" hint="Install a chart with Flux or Helm; the cluster runs the integration and reports here.">
            {GITOPS_CHARTS.map((chart) => (
              <li key={chart.chart}>
                <OptionButton
                  label={chart.label}
                  description={chart.description}
                  icon={CHART_ICONS[chart.chart] ?? LayoutGrid}
                  badge={`${chart.chart} ${chart.version}`}
                  onSelect={() => setChoice({ kind: 'chart', chart })}
                />
              </li>
            ))}
          </OptionGroup>
          <OptionGroup title="Direct" hint="Create the integration here; this server runs it.">
            {direct.map((option) => (
              <li key={option.label}>
                <OptionButton label={option.label} description={option.description} icon={option.icon} onSelect={() => setChoice({ kind: 'direct', option })} />
              </li>
            ))}
          </OptionGroup>
        </div>
      ) : (
        <div className="flex flex-col gap-3">
          <div className="flex flex-wrap items-center gap-2">
            <button
              type="button"
              onClick={() => setChoice(null)}
              className="inline-flex items-center gap-1 rounded text-sm text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-blue-500"
            >
              <ChevronLeft aria-hidden="true" className="size-4" />
              All integrations
            </button>
            <h3 className="text-base font-semibold text-gray-900">{heading}</h3>
          </div>
          {choice.kind === 'chart' ? (
            <ChartInstallPanel key={choice.chart.chart} chart={choice.chart} />
          ) : (
            <DirectForm key={choice.option.label} option={choice.option} onBack={() => setChoice(null)} onCreated={onClose} />
          )}
        </div>
      )}
    </>
  );
}
