export interface ConnectionListParams {
  pageIndex: number;
  pageSize: number;
}

export const connectionsKeys = {
  all: ['settings', 'connections'] as const,
  lists: () => [...connectionsKeys.all, 'list'] as const,
  list: (params: ConnectionListParams) => [...connectionsKeys.lists(), params] as const,
};
