import { z } from 'zod';
import { SEVERITIES } from './constants';
import { CHECK_HEALTHS } from './health';
import { isDateMath } from './time-ranges';

/** Spec 002 §9: the changes list pages by 200 from page 1; a related walk for changes goes 5 levels deep. */
export const CATALOG_CHANGES_PAGE_SIZE = 200;
export const CATALOG_CHANGES_MAX_PAGE_SIZE = 1000;
export const CATALOG_CHANGES_DEPTH = 5;
export const CATALOG_CHANGES_MAX_DEPTH = 10;
/** Spec 002 §9: the default change time range is the last 2 days. */
export const CATALOG_CHANGES_DEFAULT_FROM = 'now-2d';
export const CATALOG_SUMMARY_DEFAULT_GROUP_BY = ['config_class', 'type'] as const;
/** Spec 002 §2.1: a tag grouping carries this suffix after the tag key; labels get their own. */
export const TAG_GROUP_SUFFIX = '__tag';
export const LABEL_GROUP_SUFFIX = '__label';

/** The config_items columns a summary may group by; anything else is refused, never spliced into SQL. */
export const CATALOG_GROUP_COLUMNS = ['config_class', 'type', 'status', 'health', 'agent_id', 'scraper_id'] as const;
export type CatalogGroupColumn = (typeof CATALOG_GROUP_COLUMNS)[number];

export type CatalogGroupKey =
  | { kind: 'column'; column: CatalogGroupColumn }
  | { kind: 'tag'; key: string }
  | { kind: 'label'; key: string };

function isGroupColumn(value: string): value is CatalogGroupColumn {
  return (CATALOG_GROUP_COLUMNS as readonly string[]).includes(value);
}

/** `type`, `cluster__tag` or `app__label` as what it groups by; null for anything else. */
export function parseGroupKey(value: string): CatalogGroupKey | null {
  for (const [suffix, kind] of [
    [TAG_GROUP_SUFFIX, 'tag'],
    [LABEL_GROUP_SUFFIX, 'label'],
  ] as const) {
    if (value.endsWith(suffix) && value.length > suffix.length) return { kind, key: value.slice(0, -suffix.length) };
  }
  return isGroupColumn(value) ? { kind: 'column', column: value } : null;
}

/**
 * A comma list of values where a leading '!' excludes ('diff,!Pulled'), the grammar of the changes filters. Empty
 * parts are dropped.
 */
export interface MatchList {
  include: string[];
  exclude: string[];
}

export function parseMatchList(text: string): MatchList {
  const list: MatchList = { include: [], exclude: [] };
  for (const raw of text.split(',')) {
    const part = raw.trim();
    if (part.startsWith('!')) {
      if (part.length > 1) list.exclude.push(part.slice(1));
    } else if (part !== '') list.include.push(part);
  }
  return list;
}

/** One requirement of a Kubernetes-style tag selector. */
export type TagRequirement =
  | { key: string; op: '=' | '!='; value: string }
  | { key: string; op: 'in' | 'notin'; values: string[] };

const KEY = String.raw`[A-Za-z0-9][A-Za-z0-9._/-]*`;
const VALUE = String.raw`[A-Za-z0-9._/:@-]*`;
const EQUALITY = new RegExp(String.raw`^(${KEY})\s*(==|=|!=)\s*(${VALUE})$`);
const SET = new RegExp(String.raw`^(${KEY})\s+(in|notin)\s*\(([^()]*)\)$`);
const SET_VALUE = new RegExp(`^${VALUE}$`);

/** Commas split requirements except inside the parentheses of an in/notin set. Null for unbalanced parentheses. */
function splitRequirements(text: string): string[] | null {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (char === '(') depth += 1;
    else if (char === ')') depth -= 1;
    if (depth < 0 || depth > 1) return null;
    if (char === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0) return null;
  parts.push(text.slice(start));
  return parts.map((part) => part.trim());
}

/**
 * Parses 'cluster=prod,namespace!=kube-system,env in (a,b),team notin (x)' (the label-selector grammar of
 * Kubernetes). Null when any requirement does not parse, so the caller can refuse the whole filter.
 */
export function parseTagSelector(text: string): TagRequirement[] | null {
  if (text.trim() === '') return [];
  const parts = splitRequirements(text);
  if (parts === null) return null;
  const requirements: TagRequirement[] = [];
  for (const part of parts) {
    const equality = EQUALITY.exec(part);
    if (equality !== null) {
      const [, key = '', op, value = ''] = equality;
      requirements.push({ key, op: op === '!=' ? '!=' : '=', value });
      continue;
    }
    const set = SET.exec(part);
    if (set === null) return null;
    const [, key = '', op, list = ''] = set;
    const values = list.split(',').map((value) => value.trim());
    if (values.some((value) => !SET_VALUE.test(value))) return null;
    requirements.push({ key, op: op === 'notin' ? 'notin' : 'in', values });
  }
  return requirements;
}

/** An ISO 8601 instant or a date-math expression ('now', 'now-2d', 'now-1d/d'). */
export function isInstantOrDateMath(value: string): boolean {
  return isDateMath(value) || (/^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(Date.parse(value)));
}

const SINCE_PATTERN = /^(\d{1,4})(m|h|d|w)$/;
const since = z
  .object({ since: z.string().regex(SINCE_PATTERN, "must be a window such as '30d', '12h' or '2w'").default('30d') })
  .default({ since: '30d' });

const matchList = z.string().max(2000).describe("Comma list; a value starting with '!' excludes it");
const stringMap = z.record(z.string().min(1).max(255), z.string().max(1000));

export const catalogSummaryRequestSchema = z
  .object({
    groupBy: z
      .array(z.string().min(1).max(255))
      .min(1)
      .max(5)
      .default([...CATALOG_SUMMARY_DEFAULT_GROUP_BY])
      .describe(`Columns (${CATALOG_GROUP_COLUMNS.join(', ')}), tag keys with the '__tag' suffix or label keys with '__label'`),
    deleted: z.boolean().default(false).describe('Count deleted items too'),
    filter: z
      .object({
        configType: matchList.optional(),
        labels: stringMap.optional().describe('Every label must match'),
        tags: stringMap.optional().describe('Every tag must match'),
        search: z.string().max(255).optional().describe('Part of the name, any case'),
      })
      .default({}),
    health: matchList.optional(),
    status: matchList.optional(),
    changes: since,
    analysis: since,
    cost: z.object({ since: z.enum(['1d', '7d', '30d']).default('30d') }).default({ since: '30d' }),
    sortBy: z.string().max(300).optional().describe("A groupBy entry, 'count', 'changes', 'cost', 'created_at' or 'updated_at'; default type"),
    sortOrder: z.enum(['asc', 'desc']).default('asc'),
  })
  .superRefine((body, ctx) => {
    body.groupBy.forEach((entry, index) => {
      if (parseGroupKey(entry) === null) {
        ctx.addIssue({
          code: 'custom',
          path: ['groupBy', index],
          message: `unknown grouping '${entry}': use ${CATALOG_GROUP_COLUMNS.join(', ')}, <tag>${TAG_GROUP_SUFFIX} or <label>${LABEL_GROUP_SUFFIX}`,
        });
      }
    });
    if (new Set(body.groupBy).size !== body.groupBy.length) ctx.addIssue({ code: 'custom', path: ['groupBy'], message: 'lists a grouping twice' });
  });
export type CatalogSummaryRequest = z.infer<typeof catalogSummaryRequestSchema>;

const healthCounts = z.object(Object.fromEntries(CHECK_HEALTHS.map((health) => [health, z.number().int()])) as Record<(typeof CHECK_HEALTHS)[number], z.ZodNumber>);

/** A summary row of spec 002 §3: the group's keys, then what the group holds. */
export const catalogSummaryRowSchema = z.object({
  config_class: z.string().nullable().optional(),
  type: z.string().nullable().optional(),
  status: z.string().nullable().optional(),
  health_group: z.string().nullable().optional().describe("The health value when grouping by health (health holds the counts)"),
  agent_id: z.string().nullable().optional(),
  scraper_id: z.string().nullable().optional(),
  tags: z.record(z.string(), z.string().nullable()).describe('The value of each tag grouping; null when items lack the tag'),
  labels: z.record(z.string(), z.string().nullable()),
  count: z.number().int(),
  deleted: z.number().int().describe('How many of the counted items are deleted (0 unless deleted was asked)'),
  health: healthCounts.describe('Items per health; items without one count as unknown'),
  changes: z.number().int().describe('Changes in the changes window'),
  analysis: z.record(z.string(), z.number().int()).describe('Open insights seen in the analysis window, per analysis type'),
  analysis_by_severity: z.record(z.string(), z.number().int()),
  cost: z.number().describe('Sum of the cost window asked for'),
  cost_total_1d: z.number(),
  cost_total_7d: z.number(),
  cost_total_30d: z.number(),
  created_at: z.string().describe('The oldest item of the group'),
  updated_at: z.string().describe('The last update of any item of the group'),
});
export type CatalogSummaryRow = z.infer<typeof catalogSummaryRowSchema>;

export const catalogSummaryResponseSchema = z.array(catalogSummaryRowSchema);

/** Columns the changes list sorts by, as sort_by names them. */
export const CATALOG_CHANGE_SORTS = [
  'created_at',
  'first_observed',
  'count',
  'change_type',
  'severity',
  'summary',
  'source',
  'name',
  'type',
  'created_by',
  'external_created_by',
] as const;
export type CatalogChangeSort = (typeof CATALOG_CHANGE_SORTS)[number];

const sortPattern = new RegExp(`^-?(${CATALOG_CHANGE_SORTS.join('|')})$`);
const instant = z.string().max(64).refine(isInstantOrDateMath, "must be an ISO 8601 time or a date expression such as 'now-2d'");

export const catalogChangesRequestSchema = z
  .object({
    id: z.uuid().optional().describe('Only changes of this config item (and, with recursive, of its related items)'),
    type_filter: z.enum(['all', 'upstream', 'downstream']).default('all').describe('Direction of the related walk when recursive'),
    recursive: z.boolean().default(false),
    depth: z.number().int().min(1).max(CATALOG_CHANGES_MAX_DEPTH).default(CATALOG_CHANGES_DEPTH),
    include_deleted_configs: z.boolean().default(false),
    change_type: matchList.optional(),
    severity: matchList
      .optional()
      .refine(
        (value) => value === undefined || [...parseMatchList(value).include, ...parseMatchList(value).exclude].every((s) => (SEVERITIES as readonly string[]).includes(s)),
        `severities are ${SEVERITIES.join(', ')}`,
      ),
    config_type: matchList.optional(),
    source: matchList.optional(),
    external_created_by: matchList.optional(),
    created_by: z.uuid().optional(),
    summary: z.string().max(255).optional().describe('Part of the summary, any case'),
    tags: z
      .string()
      .max(2000)
      .refine((value) => parseTagSelector(value) !== null, "must be a tag selector such as 'cluster=prod,env in (a,b),team!=x'")
      .optional(),
    from: instant.default(CATALOG_CHANGES_DEFAULT_FROM),
    to: instant.default('now'),
    page: z.number().int().min(1).default(1),
    page_size: z.number().int().min(1).max(CATALOG_CHANGES_MAX_PAGE_SIZE).default(CATALOG_CHANGES_PAGE_SIZE),
    sort_by: z
      .string()
      .regex(sortPattern, `must be one of ${CATALOG_CHANGE_SORTS.join(', ')}, prefixed with '-' for descending`)
      .default('-created_at'),
  })
  .refine((body) => body.recursive === false || body.id !== undefined, { path: ['recursive'], message: 'needs an id to walk from' });
export type CatalogChangesRequest = z.infer<typeof catalogChangesRequestSchema>;

/** A change of spec 002 §3 with its item's name, type and tags; diff, details and patches are read one at a time. */
export const catalogChangeSchema = z.object({
  id: z.guid(),
  config_id: z.guid(),
  name: z.string(),
  type: z.string(),
  config_class: z.string(),
  tags: z.record(z.string(), z.unknown()),
  config_deleted_at: z.string().nullable(),
  change_type: z.string(),
  severity: z.string().nullable(),
  summary: z.string().nullable(),
  source: z.string().nullable(),
  count: z.number().int().describe('Sightings folded into this row'),
  first_observed: z.string(),
  created_at: z.string().describe('The latest sighting'),
  created_by: z.guid().nullable(),
  external_created_by: z.string().nullable(),
});
export type CatalogChange = z.infer<typeof catalogChangeSchema>;

export const catalogChangesResponseSchema = z.object({
  changes: z.array(catalogChangeSchema),
  total: z.number().int().describe('Rows matching every filter, before paging'),
  summary: z.object({
    change_types: z.record(z.string(), z.number().int()),
    severities: z.record(z.string(), z.number().int()).describe("Rows per severity; 'none' for rows without one"),
  }),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type CatalogChangesResponse = z.infer<typeof catalogChangesResponseSchema>;
