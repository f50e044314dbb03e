import { useQuery } from '@tanstack/react-query';
import { db } from '@/lib/api/db';

export type FindingKind = 'config_analysis' | 'config_change';

export interface ConfigFinding {
  id: string;
  label: string;
}

/** The most recent analyses or changes of one config item a piece of evidence can point at. */
export const CONFIG_FINDINGS_LIMIT = 50;

export async function getConfigFindings(kind: FindingKind, configId: string, signal?: AbortSignal): Promise<ConfigFinding[]> {
  if (kind === 'config_analysis') {
    const query = db
      .from('config_analysis')
      .select('id,analyzer,summary,status')
      .eq('config_id', configId)
      .order('last_observed', { ascending: false })
      .limit(CONFIG_FINDINGS_LIMIT);
    const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
    return data.map((row) => ({ id: row.id, label: `${row.summary ?? row.analyzer} (${row.status})` }));
  }
  const query = db
    .from('config_changes')
    .select('id,change_type,summary,created_at')
    .eq('config_id', configId)
    .order('created_at', { ascending: false })
    .limit(CONFIG_FINDINGS_LIMIT);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  return data.map((row) => ({ id: row.id, label: row.summary ? `${row.change_type}: ${row.summary}` : row.change_type }));
}

export function useConfigFindingsQuery(kind: FindingKind | null, configId: string | null) {
  return useQuery({
    queryKey: ['config-findings', kind, configId],
    queryFn: ({ signal }) => getConfigFindings(kind ?? 'config_change', configId ?? '', signal),
    enabled: kind !== null && configId !== null,
  });
}
