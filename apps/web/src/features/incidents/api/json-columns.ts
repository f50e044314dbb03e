import { z } from 'zod';

/*
 * The JSON columns the incident screens read are free-form in the database, and whatever other clients or older
 * releases wrote there reaches React as is. Each is checked here when it arrives, so a malformed value becomes a
 * message next to its row instead of an exception that takes the page down.
 */

/** Absent and null both mean "not given"; the rest of the screen only deals with undefined. */
const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? undefined);

const labelValue: z.ZodType<LabelValue> = z.union([z.string(), z.number(), z.boolean()]);

export type LabelValue = string | number | boolean;

/** Spec 000 §3: a log line is a timestamp, a message and labels. */
export interface LogRecord {
  timestamp?: string;
  message: string;
  labels: Record<string, LabelValue>;
}

/** Rows written before log lines had a shape hold plain text. */
export type LogLine = string | LogRecord;

/** The inner payload of an evidence (spec 000 §3); which fields are set depends on its type. */
export interface EvidencePayload {
  comment?: string;
  lines?: LogLine[];
  selected_lines?: number[];
  start?: string;
  includeMessages?: boolean;
  configName?: string;
  id?: string;
}

export interface ResponderClientSettings {
  linkUrl?: string;
  connection?: string;
  defaults?: Record<string, unknown>;
  [field: string]: unknown;
}

export interface TeamSpec {
  responder_clients?: Record<string, ResponderClientSettings | null>;
  [field: string]: unknown;
}

export const logLineSchema: z.ZodType<LogLine> = z.union(
  [
    z.string(),
    z.object({
      timestamp: optionalText,
      message: z.string(),
      labels: z
        .record(z.string(), labelValue)
        .nullish()
        .transform((labels) => labels ?? {}),
    }),
  ],
  { error: 'a log line must be text or an object with a text message' },
);

/** Indexes into `lines`; config evidence written by older releases keeps them as an object keyed by index. */
const selectedLinesSchema = z.union(
  [
    z.array(z.number().int().nonnegative()),
    z.record(z.string().regex(/^\d+$/), z.unknown()).transform((byIndex) => Object.keys(byIndex).map(Number)),
  ],
  { error: 'selected lines must be line numbers' },
);

export const evidencePayloadSchema: z.ZodType<EvidencePayload | null> = z
  .object(
    {
      comment: optionalText,
      lines: z.array(logLineSchema).nullish().transform((lines) => lines ?? undefined),
      selected_lines: selectedLinesSchema.nullish().transform((selected) => selected ?? undefined),
      start: optionalText,
      includeMessages: z.boolean().nullish().transform((include) => include ?? undefined),
      configName: optionalText,
      id: optionalText,
    },
    { error: 'it must be an object' },
  )
  .nullable();

/** `properties` of evidences and responders: named values; null counts as none. */
export const propertiesSchema = z
  .record(z.string(), z.unknown(), { error: 'it must be an object' })
  .nullable()
  .transform((properties) => properties ?? {});

const responderClientSchema: z.ZodType<ResponderClientSettings> = z.looseObject({
  linkUrl: optionalText,
  connection: optionalText,
  defaults: z.record(z.string(), z.unknown()).nullish().transform((defaults) => defaults ?? undefined),
});

/** teams.spec: of it, the incident screens read only the responder clients a team has set up. */
export const teamSpecSchema: z.ZodType<TeamSpec | null> = z
  .looseObject(
    { responder_clients: z.record(z.string(), responderClientSchema.nullable()).nullish().transform((clients) => clients ?? undefined) },
    { error: 'it must be an object' },
  )
  .nullable();

function issuePath(path: readonly PropertyKey[]): string {
  return path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('');
}

export type ColumnRead<T> = { ok: true; value: T } | { ok: false; problem: string };

/** The column's value in the schema's shape, or what is wrong with it, named by column and path (`evidence.lines[2]`). */
export function readColumn<S extends z.ZodType>(column: string, schema: S, raw: unknown): ColumnRead<z.output<S>> {
  const result = schema.safeParse(raw);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  return { ok: false, problem: issue ? `${column}${issuePath(issue.path)}: ${issue.message}` : `${column} does not have the expected shape` };
}
