import { can } from '@opsdeck/shared';
import type { Principal } from '../../platform/principal';
import type { WriteMethod } from '../../data-api/write-hooks';
import { scraperErrors } from './scraper-errors';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * True when a scraper spec lists exec sources, bare or inside a `kind: ScrapeConfig` resource. Any `exec` key counts,
 * even one that does not validate, so an invalid spec cannot slip a script past the permission and be fixed later;
 * migration 0117's trigger applies the same rule to every row a write reaches.
 */
export function scraperSpecRunsExec(spec: unknown): boolean {
  if (!isRecord(spec)) return false;
  if (Object.hasOwn(spec, 'exec')) return true;
  return isRecord(spec.spec) && Object.hasOwn(spec.spec, 'exec');
}

/** Data API validator of config_scrapers: a row whose spec runs a script needs the execute permission (admin). */
export function scraperExecValidator(rows: ReadonlyArray<Record<string, unknown>>, _method: WriteMethod, principal: Principal | null): void {
  if (!rows.some((row) => scraperSpecRunsExec(row.spec))) return;
  if (!can(principal?.roles ?? [], 'config_scrapers', 'execute')) throw scraperErrors.execForbidden('spec.exec');
}
