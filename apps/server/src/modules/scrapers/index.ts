/** The scrapers module as the rest of the server sees it: its plugin, and the run the demo seed and the bench call. */
export { scrapersPlugin, SCRAPE_REQUESTED_EVENT } from './scrapers-plugin';
export { runScrape, type RunScrapeDeps, type ScrapeRunOutcome, type ScraperToRun } from './run-scrape';
export { demoScrapeDir } from './demo-rewrites';
// The topology spec checks its configLookup JSONPaths by the same grammar.
export { jsonPathProblem } from './transform/json-path-grammar';
// Playbooks' connections.fromConfigItem follows the kubeconfig connection of the item's scraper.
export { kubernetesConnectionOf } from './sources/kubernetes';
// docs/compatibility.md's ScrapeConfig section, written from the tables the save rules judge by.
export { renderScrapeConfigCompatibility } from './compatibility-section';
