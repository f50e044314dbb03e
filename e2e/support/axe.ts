import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import type { AxeResults, ImpactValue, RunOptions } from 'axe-core';

const require = createRequire(import.meta.url);
/** axe-core's browser build, evaluated through the DevTools protocol, which the page's CSP does not govern. */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.1 A and AA, the level issue #36 holds every page to. */
const RUN_OPTIONS: RunOptions = { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] };

/** Findings that fail the crawl; moderate and minor ones are listed in its report. */
export const BLOCKING_IMPACTS: ReadonlySet<ImpactValue> = new Set(['critical', 'serious']);

export interface AxeFinding {
  rule: string;
  impact: ImpactValue | null;
  /** The CSS path of the element, as axe reports it. */
  target: string;
  help: string;
}

interface AxeWindow {
  axe?: { run(context: Document, options: RunOptions): Promise<AxeResults> };
}

/** Every WCAG 2.1 AA violation axe finds on the page as it is now, one entry per element. */
export async function axeFindings(page: Page): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => (window as AxeWindow).axe !== undefined))) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(async (options) => {
    const axe = (window as AxeWindow).axe;
    if (axe === undefined) throw new Error('axe-core did not load');
    return axe.run(document, options);
  }, RUN_OPTIONS);
  return results.violations.flatMap((violation) =>
    violation.nodes.map((node) => ({ rule: violation.id, impact: node.impact ?? violation.impact ?? null, target: node.target.join(' '), help: violation.help })),
  );
}
