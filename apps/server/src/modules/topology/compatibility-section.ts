import { TOPOLOGY_FIELD_TABLES, type TopologyFieldTable } from '@opsdeck/shared';

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

function fieldTable(heading: string, table: TopologyFieldTable, prefix: string): string[] {
  const rows = Object.entries(table).map(
    ([field, rule]) => `| \`${prefix}${field}\` | ${rule.support === 'runs' ? 'runs' : '**refused** (`OD_TOPOLOGY_FIELD_NOT_RUN`)'} | ${cell(rule.note)} |`,
  );
  return ['', `### ${heading}`, '', '| Field | Verdict | What this server does |', '| --- | --- | --- |', ...rows];
}

/**
 * The Topology section of docs/compatibility.md, written from the tables of packages/shared/src/topology-spec.ts that
 * the save rules (spec.ts) judge every spec by (ADR 0073), so the page says exactly what a save accepts and refuses.
 */
export function renderTopologyCompatibility(): string {
  const lines = TOPOLOGY_FIELD_TABLES.flatMap(({ heading, table, prefix }) => fieldTable(heading, table, prefix));
  return lines.slice(1).join('\n');
}
