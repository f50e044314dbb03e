import { z } from 'zod';
import { INCIDENT_TYPES, SEVERITIES } from './constants';
import { parseDurationMs } from './durations';

/**
 * The spec of an incident rule (`incident_rules.spec`, issue #19): which sources it watches, a CEL filter over them,
 * the incident it opens, how matches group into one incident, whether it resolves itself, and who responds. The
 * server checks every write against this schema and compiles the filter (CEL is not in zod's reach); the web editor
 * validates against the same schema as the author types.
 */

/** What a rule can watch: a health check, a topology component, or an alert that arrived through ingestion. */
export const INCIDENT_RULE_SOURCES = ['check', 'component', 'alert'] as const;
export type IncidentRuleSource = (typeof INCIDENT_RULE_SOURCES)[number];

/** A match within this long of the group's last match joins that group's open incident. */
export const DEFAULT_GROUP_WINDOW = '1h';
export const MIN_GROUP_WINDOW_MS = 60_000;
export const MAX_GROUP_WINDOW_MS = 30 * 86_400_000;
export const MAX_RULE_FILTER_LENGTH = 4000;
export const MAX_GROUP_BY_FIELDS = 10;

/** Evidence type of an alert attached by a rule; people add the other types by hand (EVIDENCE_TYPES). */
export const ALERT_EVIDENCE_TYPE = 'alert';

/** 'alert.labels.alertname', 'check.name', 'component.labels.app.kubernetes.io/name' (the rest after labels is one key). */
const GROUP_BY_PATH = /^(check|component|alert)\.[\w-]+(\.[\w./-]+)?$/;

const templateText = (max: number) => z.string().trim().min(1).max(max);

export const incidentRuleIncidentSchema = z
  .strictObject({
    title: templateText(500).describe('The incident title, a Liquid template over check, component or alert, e.g. "{{ alert.name }} firing"'),
    type: z.enum(INCIDENT_TYPES).describe('The incident type'),
    severity: z.enum(SEVERITIES).describe('The incident severity'),
    description: z.string().max(10_000).optional().describe('The incident description, a Liquid template like the title'),
  })
  .describe('The incident a match opens');

export const incidentRuleRespondersSchema = z
  .strictObject({
    teams: z.array(z.string().trim().min(1).max(255)).max(20).optional().describe('Team names; each responds through its first responder client, or else its members are added'),
    people: z.array(z.email()).max(50).optional().describe('E-mail addresses of people added as responders'),
  })
  .describe('Who is added as responder to an incident the rule opens');

export const incidentRuleSpecSchema = z
  .strictObject({
    filter: z
      .string()
      .trim()
      .min(1)
      .max(MAX_RULE_FILTER_LENGTH)
      .describe("A CEL expression over check, component and alert returning a bool, e.g. alert.severity == 'critical'"),
    sources: z
      .array(z.enum(INCIDENT_RULE_SOURCES))
      .min(1)
      .refine((sources) => new Set(sources).size === sources.length, { message: 'list each source once' })
      .optional()
      .describe('The sources the rule watches (default: all three)'),
    incident: incidentRuleIncidentSchema,
    groupBy: z
      .array(z.string().regex(GROUP_BY_PATH, 'must be a field path such as alert.labels.alertname or check.name'))
      .max(MAX_GROUP_BY_FIELDS)
      .optional()
      .describe('Field paths whose values make the group key (default: the source itself)'),
    groupWindow: z
      .string()
      .superRefine((text, ctx) => {
        const ms = parseDurationMs(text);
        if (ms === null) ctx.addIssue({ code: 'custom', message: 'must be a duration such as 30m, 1h or 2h30m' });
        else if (ms < MIN_GROUP_WINDOW_MS || ms > MAX_GROUP_WINDOW_MS) ctx.addIssue({ code: 'custom', message: 'must be between 1m and 30d' });
      })
      .optional()
      .describe(`A match within this long of the group's last match joins its open incident (default ${DEFAULT_GROUP_WINDOW})`),
    autoResolve: z.boolean().optional().describe('Resolve the incident once every source attached to it has recovered (default true)'),
    responders: incidentRuleRespondersSchema.optional(),
  })
  .describe('Incident rule spec');
export type IncidentRuleSpec = z.infer<typeof incidentRuleSpecSchema>;

/** The spec with its defaults filled in, as the engine reads it. */
export interface ResolvedIncidentRuleSpec extends IncidentRuleSpec {
  sources: IncidentRuleSource[];
  groupBy: string[];
  groupWindowMs: number;
  autoResolve: boolean;
}

export function resolveIncidentRuleSpec(spec: IncidentRuleSpec): ResolvedIncidentRuleSpec {
  return {
    ...spec,
    sources: spec.sources ?? [...INCIDENT_RULE_SOURCES],
    groupBy: spec.groupBy ?? [],
    groupWindowMs: parseDurationMs(spec.groupWindow ?? DEFAULT_GROUP_WINDOW) ?? 3_600_000,
    autoResolve: spec.autoResolve ?? true,
  };
}

/** What the schema refuses in a spec, as '<path>: <message>' lines (empty when it passes). */
export function incidentRuleSpecProblems(spec: unknown): string[] {
  const result = incidentRuleSpecSchema.safeParse(spec);
  if (result.success) return [];
  return result.error.issues.map((issue) => (issue.path.length === 0 ? issue.message : `${issue.path.join('.')}: ${issue.message}`));
}

/** The spec as a JSON Schema (draft 2020-12), for the editor that validates YAML or JSON as it is typed. */
export function incidentRuleSpecJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(incidentRuleSpecSchema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
}

/** A new rule's starting point in the editor: critical alerts open an incident per alert name. */
export const INCIDENT_RULE_EXAMPLE_SPEC: Readonly<Record<string, unknown>> = {
  sources: ['alert'],
  filter: "alert.severity == 'critical'",
  incident: { title: '{{ alert.name }} is firing', type: 'availability', severity: 'critical', description: '{{ alert.annotations.summary }}' },
  groupBy: ['alert.labels.alertname'],
  groupWindow: '30m',
  autoResolve: true,
};
