export const usersKeys = {
  all: ['settings', 'users'] as const,
  lists: () => [...usersKeys.all, 'list'] as const,
  /** One page of the list: its search, sort and page. */
  list: (query: object) => [...usersKeys.lists(), query] as const,
  /** The role picker's answer for what was typed. */
  search: (text: string) => [...usersKeys.all, 'search', text] as const,
};
