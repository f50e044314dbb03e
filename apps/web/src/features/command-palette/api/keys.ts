/** Query keys of the command palette: one search per text and limit. */
export const commandPaletteKeys = {
  all: ['command-palette'] as const,
  search: (text: string, limit: number) => [...commandPaletteKeys.all, 'search', text, limit] as const,
};
