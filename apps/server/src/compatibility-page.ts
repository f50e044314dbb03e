import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderConnectionCompatibility, renderNotificationCompatibility } from './modules/apply';
import { renderCanaryCompatibility } from './modules/health';
import { renderPlaybookCompatibility } from './modules/playbooks';
import { renderScrapeConfigCompatibility } from './modules/scrapers';
import { renderTopologyCompatibility } from './modules/topology';

/** docs/compatibility.md: what this server runs of each Mission Control kind (issue #32, ADR 0069). */
export const COMPATIBILITY_PAGE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/compatibility.md');

/**
 * A generated block of the page: written between `<!-- BEGIN GENERATED <name> … -->` and `<!-- END GENERATED <name> -->`
 * from the code that decides what a save accepts, so the page cannot drift from it. A kind adds its section here with
 * its own renderer, and its own markers in the page.
 */
export interface CompatibilitySection {
  name: string;
  render: () => string;
}

export const COMPATIBILITY_SECTIONS: readonly CompatibilitySection[] = [
  { name: 'canary', render: renderCanaryCompatibility },
  { name: 'scrapeconfig', render: renderScrapeConfigCompatibility },
  { name: 'topology', render: renderTopologyCompatibility },
  { name: 'playbook', render: renderPlaybookCompatibility },
  { name: 'notification', render: renderNotificationCompatibility },
  { name: 'connection', render: renderConnectionCompatibility },
];

function begin(name: string): string {
  return `<!-- BEGIN GENERATED ${name}: npm run docs:compatibility writes this block -->`;
}

function end(name: string): string {
  return `<!-- END GENERATED ${name} -->`;
}

/** The page with each section's block rewritten; the text around the blocks is kept as written. */
export function renderCompatibilityPage(page: string, sections: readonly CompatibilitySection[] = COMPATIBILITY_SECTIONS): string {
  return sections.reduce((text, section) => {
    const open = text.indexOf(begin(section.name));
    const close = text.indexOf(end(section.name));
    if (open === -1 || close === -1 || close < open) {
      throw new Error(`docs/compatibility.md has no block for '${section.name}': add the lines\n${begin(section.name)}\n${end(section.name)}`);
    }
    return `${text.slice(0, open)}${begin(section.name)}\n${section.render()}\n${text.slice(close)}`;
  }, page);
}
