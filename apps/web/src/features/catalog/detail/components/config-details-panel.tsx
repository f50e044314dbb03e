import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDate, formatRelativeTime } from '@opsdeck/shared';
import { HealthDot } from '@/components/status/health-dot';
import { formatCost } from '../../utils/catalog-format';
import type { ConfigDetail } from '../api/get-config-detail';

interface ConfigProperty {
  name: string;
  text: string;
}

function propertyText(value: Record<string, unknown>): string {
  if (typeof value.text === 'string' && value.text !== '') return value.text;
  if (value.value === undefined || value.value === null) return '';
  const unit = typeof value.unit === 'string' ? ` ${value.unit}` : '';
  return `${String(value.value)}${unit}`;
}

/** Scrapers write properties as a list of {name, text | value, unit}; entries of any other shape are left out. */
export function readProperties(properties: unknown): ConfigProperty[] {
  if (!Array.isArray(properties)) return [];
  return properties.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null || !('name' in entry) || typeof entry.name !== 'string') return [];
    return [{ name: entry.name, text: propertyText(entry as Record<string, unknown>) }];
  });
}

function When({ at }: { at: string | null }) {
  if (at === null) return <>—</>;
  return (
    <time dateTime={at} title={formatDate(at)}>
      {formatRelativeTime(at)} ago
    </time>
  );
}

function Pairs({ values }: { values: Record<string, string> | null }) {
  const entries = Object.entries(values ?? {});
  if (entries.length === 0) return <>—</>;
  return (
    <span className="flex flex-wrap gap-1">
      {entries.map(([key, value]) => (
        <span key={key} className="rounded bg-gray-100 px-1 text-xs break-all text-gray-700">
          {key}={value}
        </span>
      ))}
    </span>
  );
}

const COST_FIELDS = [
  ['Cost (1d)', 'cost_total_1d'],
  ['Cost (7d)', 'cost_total_7d'],
  ['Cost (30d)', 'cost_total_30d'],
] as const;

function Facts({ facts }: { facts: readonly (readonly [string, ReactNode])[] }) {
  return (
    <dl className="grid grid-cols-[minmax(5.5rem,auto)_1fr] gap-x-3 gap-y-2 text-sm">
      {facts.map(([label, value], index) => (
        // Property names may repeat, so the position keeps keys apart.
        <div key={`${index}-${label}`} className="contents">
          <dt className="text-gray-500">{label}</dt>
          <dd className="min-w-0 break-words text-gray-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The item's facts beside its tabs: identity, state, tags and labels, times, where it came from, costs, properties. */
export function ConfigDetailsPanel({ config }: { config: ConfigDetail }) {
  const costs = COST_FIELDS.flatMap(([label, field]) => {
    const text = formatCost(config[field]);
    return text === '' ? [] : [[label, text] as const];
  });
  const properties = readProperties(config.properties);

  const facts: (readonly [string, ReactNode])[] = [
    ['ID', <span className="font-mono text-xs break-all">{config.id}</span>],
    ['Type', config.type],
    ['Class', config.config_class],
    ['Status', config.status ?? '—'],
    [
      'Health',
      config.health === null ? (
        '—'
      ) : (
        <span className="flex items-center gap-1.5">
          <HealthDot status={config.health} />
          {config.health}
        </span>
      ),
    ],
    ['Description', config.description ?? '—'],
    ['Tags', <Pairs values={config.tags} />],
    ['Labels', <Pairs values={config.labels} />],
    ['Created', <When at={config.created_at} />],
    ['Updated', <When at={config.updated_at} />],
    ...(config.deleted_at === null ? [] : ([['Deleted', <When at={config.deleted_at} />]] as const)),
    ...(config.delete_reason === null ? [] : ([['Delete reason', config.delete_reason]] as const)),
    ['Last scraped', <When at={config.last_scraped_time} />],
    [
      'Scraper',
      config.scraper === null ? (
        '—'
      ) : (
        <Link to={`/catalog/scrapers/${config.scraper.id}`} className="text-blue-700 hover:underline">
          {config.scraper.name}
        </Link>
      ),
    ],
    ['Agent', config.agent?.name ?? '—'],
    ...costs,
  ];

  return (
    <div className="flex flex-col gap-4 p-3">
      <Facts facts={facts} />
      {properties.length > 0 && (
        <section aria-label="Properties" className="flex flex-col gap-2">
          <h3 className="text-sm font-semibold text-gray-900">Properties</h3>
          <Facts facts={properties.map((property) => [property.name, property.text || '—'] as const)} />
        </section>
      )}
    </div>
  );
}
