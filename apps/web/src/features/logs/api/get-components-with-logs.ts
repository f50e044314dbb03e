import { useQuery } from '@tanstack/react-query';
import type { LogSelector, RowWith, ViewRow } from '@opsdeck/shared';
import { db } from '@/lib/api/db';
import { logsKeys } from './keys';

/** A component some log backend serves, as the picker lists it. */
export type ComponentOption = Pick<ViewRow<'components_with_logs'>, 'id' | 'name' | 'text' | 'type' | 'icon' | 'topology_id'>;

/** A row of `components_with_logs` with the selectors the logs call takes, read as selectors (JSON in the view). */
export type ComponentWithLogs = ComponentOption & RowWith<Pick<ViewRow<'components_with_logs'>, 'log_selectors'>, { log_selectors: LogSelector[] | null }>;

const OPTION_COLUMNS = 'id,name,text,type,icon,topology_id';
/**
 * The picker lists this many, by name; a component beyond them is still reachable by a link (topologyId), which is
 * read on its own. Building the selectors is left to that one row, so the list stays cheap at 100,000 components.
 */
export const COMPONENT_OPTIONS_LIMIT = 1000;

export async function getComponentOptions(signal?: AbortSignal): Promise<ComponentOption[]> {
  const query = db.from('components_with_logs').select(OPTION_COLUMNS).order('name', { ascending: true }).limit(COMPONENT_OPTIONS_LIMIT);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  return data;
}

/** The component with its selectors, or null when no log backend serves it (or it is gone). */
export async function getComponentWithLogs(id: string, signal?: AbortSignal): Promise<ComponentWithLogs | null> {
  const query = db.from('components_with_logs').select(`${OPTION_COLUMNS},log_selectors`).eq('id', id).limit(1);
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError().overrideTypes<ComponentWithLogs[], { merge: false }>();
  return data[0] ?? null;
}

/** The component picker's options; they change only when backends or components do. */
export function useComponentsWithLogsQuery() {
  return useQuery({ queryKey: logsKeys.components(), queryFn: ({ signal }) => getComponentOptions(signal) });
}
