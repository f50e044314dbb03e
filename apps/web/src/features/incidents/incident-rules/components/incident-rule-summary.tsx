import type { ReactNode } from 'react';
import { DEFAULT_GROUP_WINDOW, INCIDENT_RULE_SOURCES, incidentRuleSpecSchema, type IncidentRuleSource } from '@opsdeck/shared';

const SOURCE_LABELS: Readonly<Record<IncidentRuleSource, string>> = { check: 'health checks', component: 'components', alert: 'alerts' };

export interface IncidentRuleSummaryProps {
  spec: Readonly<Record<string, unknown>>;
}

/**
 * What an incident rule does, in words, beside its YAML: which sources it watches, when it matches, the incident it
 * opens, how matches group, whether it resolves itself and who responds. Shown only while the spec is valid; the
 * problems list says what to fix otherwise.
 */
export function IncidentRuleSummary({ spec }: IncidentRuleSummaryProps) {
  const parsed = incidentRuleSpecSchema.safeParse(spec);
  if (!parsed.success) return null;
  const rule = parsed.data;
  const sources = (rule.sources ?? INCIDENT_RULE_SOURCES).map((source) => SOURCE_LABELS[source]);
  const teams = rule.responders?.teams ?? [];
  const people = rule.responders?.people ?? [];
  const groupBy = rule.groupBy ?? [];
  const rows: Array<[string, ReactNode]> = [
    ['Watches', sources.join(', ')],
    ['Matches when', <code key="filter" className="font-mono text-xs break-all">{rule.filter}</code>],
    [
      'Opens',
      <span key="opens">
        <q className="break-words">{rule.incident.title}</q> · {rule.incident.type} · {rule.incident.severity}
      </span>,
    ],
    [
      'Groups',
      `${groupBy.length === 0 ? 'one incident per source' : `by ${groupBy.join(', ')}`}, joining an open incident matched within ${rule.groupWindow ?? DEFAULT_GROUP_WINDOW}`,
    ],
    ['Resolves', rule.autoResolve === false ? 'by hand only' : 'itself once every attached source has recovered'],
    ['Responders', teams.length === 0 && people.length === 0 ? 'none' : [...teams.map((team) => `team ${team}`), ...people].join(', ')],
  ];
  return (
    <section aria-label="What this rule does" className="rounded-md border border-gray-200 bg-gray-50 p-3 text-sm">
      <dl className="grid grid-cols-1 gap-x-3 gap-y-1 sm:grid-cols-[auto_1fr]">
        {rows.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="font-medium text-gray-700">{term}</dt>
            <dd className="min-w-0 text-gray-900">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
