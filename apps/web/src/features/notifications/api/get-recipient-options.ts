import { useQuery } from '@tanstack/react-query';
import { LOOKUP_STALE_TIME_MS, type ConnectionType } from '@opsdeck/shared';
import { db, silentDb } from '@/lib/api/db';
import { notificationsKeys } from './keys';
import type { NotificationConnection, PersonRef, TeamRef } from './types';

/** The notification connection types the server can deliver to; the other notification types are refused on save. */
export const DELIVERABLE_CONNECTION_TYPES: readonly ConnectionType[] = [
  'email',
  'slack',
  'generic_webhook',
  'teams',
  'discord',
  'google_chat',
  'mattermost',
  'ntfy',
  'telegram',
];

export async function getPeople(signal?: AbortSignal): Promise<PersonRef[]> {
  const query = silentDb.from('people').select('id,name,avatar').is('deleted_at', null).order('name', { ascending: true });
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  return data;
}

export async function getTeams(signal?: AbortSignal): Promise<TeamRef[]> {
  const query = silentDb.from('teams').select('id,name,icon').is('deleted_at', null).order('name', { ascending: true });
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError();
  return data;
}

/** Through the toasting client: spec 001 §8 reports a failed connection list with an error toast. */
export async function getNotificationConnections(signal?: AbortSignal): Promise<NotificationConnection[]> {
  const query = db
    .from('connections')
    .select('id,name,namespace,type')
    .in('type', [...DELIVERABLE_CONNECTION_TYPES])
    .is('deleted_at', null)
    .order('name', { ascending: true });
  const { data } = await (signal ? query.abortSignal(signal) : query).throwOnError().overrideTypes<NotificationConnection[], { merge: false }>();
  return data;
}

export function usePeopleQuery(enabled: boolean) {
  return useQuery({ queryKey: notificationsKeys.people(), queryFn: ({ signal }) => getPeople(signal), staleTime: LOOKUP_STALE_TIME_MS, enabled });
}

export function useTeamsQuery(enabled: boolean) {
  return useQuery({ queryKey: notificationsKeys.teams(), queryFn: ({ signal }) => getTeams(signal), staleTime: LOOKUP_STALE_TIME_MS, enabled });
}

export function useNotificationConnectionsQuery(enabled: boolean) {
  return useQuery({
    queryKey: notificationsKeys.connections(),
    queryFn: ({ signal }) => getNotificationConnections(signal),
    staleTime: LOOKUP_STALE_TIME_MS,
    enabled,
    retry: false,
  });
}
