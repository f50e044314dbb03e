import { useQuery } from '@tanstack/react-query';
import { isApiError } from '@/lib/api/api-error';
import { dynamicDb } from '@/lib/api/db';
import { requestJson } from '@/lib/api/http';
import type { SettingsResourceKind } from '../settings-resource-kind';
import { settingsResourceKeys } from './keys';
import type { SettingsResource } from './types';

const HTTP_NOT_FOUND = 404;

function normalize(row: Partial<SettingsResource> & Pick<SettingsResource, 'id' | 'name' | 'created_at' | 'updated_at'>): SettingsResource {
  return {
    id: row.id,
    name: row.name,
    namespace: row.namespace ?? 'default',
    labels: row.labels ?? {},
    spec: row.spec ?? {},
    icon: row.icon ?? null,
    description: row.description ?? null,
    schedule: row.schedule ?? null,
    source: row.source ?? null,
    agent_id: row.agent_id ?? null,
    created_by: row.created_by ?? null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** One resource by id; null when there is none (a deleted or unknown id). */
export async function getResource(kind: SettingsResourceKind, id: string, signal?: AbortSignal): Promise<SettingsResource | null> {
  if (kind.service.kind === 'service') {
    try {
      return normalize(await requestJson<SettingsResource>(`${kind.service.path}/${encodeURIComponent(id)}`, { signal, silent: true }));
    } catch (error) {
      if (isApiError(error) && error.status === HTTP_NOT_FOUND) return null;
      throw error;
    }
  }
  const query = dynamicDb.from(kind.table).select('*').eq('id', id).is('deleted_at', null).limit(1);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  const rows: SettingsResource[] = data;
  const row = rows[0];
  return row === undefined ? null : normalize(row);
}

export function useResourceQuery(kind: SettingsResourceKind, id: string) {
  return useQuery({ queryKey: settingsResourceKeys.detail(kind.table, id), queryFn: ({ signal }) => getResource(kind, id, signal) });
}
