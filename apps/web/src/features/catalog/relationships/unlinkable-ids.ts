import type { ManualLink, RelatedConfig } from './api/types';

/**
 * Which rows may be unlinked. The rows are config items, so the links of config_component_relationships (a
 * component to a config) never show here; what a row can carry is a config_relationships link to this item. Only
 * rows one step away whose link has selector_id 'manual' (made by a person) qualify: parent and child (hard) links
 * come from the item's own data, and a scraper's links come back on its next run, so the server refuses to remove
 * them (P0001).
 */
export function unlinkableIds(configId: string, items: readonly RelatedConfig[], links: readonly ManualLink[]): Set<string> {
  const linked = new Set(links.flatMap((link) => (link.config_id === configId ? [link.related_id] : link.related_id === configId ? [link.config_id] : [])));
  return new Set(items.filter((item) => item.depth === 1 && linked.has(item.id)).map((item) => item.id));
}
