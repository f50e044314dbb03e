import { useQuery } from '@tanstack/react-query';
import { getComponentWithLogs } from './get-components-with-logs';
import { getConfigItemWithLogs } from './get-config-items-with-logs';
import { logsKeys } from './keys';
import { componentSubject, configItemSubject, type LogSubject } from '../utils/log-subjects';

/**
 * The component or config item with this id, with its selectors; null when no log backend serves either. A link
 * names both kinds with one parameter (topologyId), as the logs call takes either id, so both are asked at once. A
 * refusal of one kind (a role that may not read it) does not hide the other.
 */
export async function getLogSubject(id: string, signal?: AbortSignal): Promise<LogSubject | null> {
  const [component, item] = await Promise.allSettled([getComponentWithLogs(id, signal), getConfigItemWithLogs(id, signal)]);
  if (component.status === 'fulfilled' && component.value !== null) {
    return { ...componentSubject(component.value), log_selectors: component.value.log_selectors ?? [] };
  }
  if (item.status === 'fulfilled' && item.value !== null) return { ...configItemSubject(item.value), log_selectors: item.value.log_selectors ?? [] };
  const failed = component.status === 'rejected' ? component : item.status === 'rejected' ? item : null;
  if (failed !== null) throw failed.reason instanceof Error ? failed.reason : new Error(String(failed.reason));
  return null;
}

export function useLogSubjectQuery(id: string | null) {
  return useQuery({
    queryKey: logsKeys.subject(id ?? ''),
    queryFn: ({ signal }) => getLogSubject(id ?? '', signal),
    enabled: id !== null,
  });
}
