import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CANARY_FIELD_RULES, CHECK_FIELD_RULES, CHECK_TYPES_NOT_RUN, MINIMAL_CHECKS, placeAt, placeExample, topLevelKey, valueAtPath } from './check-catalogue';
import { CANARY_SPEC_KEYS, canaryLevelSchema, canarySpecJsonSchema, CHECK_SCHEMAS, CHECK_TYPES } from './check-specs';

/** The object schema inside optional and defaulted wrappers, or null when the field is no object. */
function objectInside(schema: z.ZodType): z.ZodObject | null {
  if (schema instanceof z.ZodObject) return schema;
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault) return objectInside(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodPipe) return objectInside(schema.in as z.ZodType);
  // A field written as one object or a list of them (catalog's selector) is judged by the object's keys.
  if (schema instanceof z.ZodUnion) return (schema.options as z.ZodType[]).map(objectInside).find((inner) => inner !== null) ?? null;
  return null;
}

/** The schema's keys as catalogue paths: `tlsConfig.ca` for a key inside an object field, the key itself otherwise. */
function schemaPaths(schema: z.ZodObject): string[] {
  return Object.entries(schema.shape).flatMap(([key, field]) => {
    const inner = objectInside(field as z.ZodType);
    // Objects whose keys the catalogue names one by one; authentication and the label maps are judged whole.
    if (inner === null || !Object.keys(inner.shape).every((child) => `${key}.${child}` in rulesWithNested)) return [key];
    return Object.keys(inner.shape).map((child) => `${key}.${child}`);
  });
}

const rulesWithNested: Record<string, true> = Object.fromEntries(
  CHECK_TYPES.flatMap((type) => Object.keys(CHECK_FIELD_RULES[type]).filter((path) => path.includes('.')).map((path) => [path, true] as const)),
);

describe('the check catalogue and the check schemas', () => {
  it.each(CHECK_TYPES)('lets exactly the %s fields the catalogue says run or are inert through the schema', (type) => {
    const rules = CHECK_FIELD_RULES[type];
    const accepted = Object.entries(rules)
      .filter(([, rule]) => rule.verdict !== 'refused')
      .map(([path]) => path)
      .sort();
    const schema = CHECK_SCHEMAS[type];
    expect(schemaPaths(schema).sort()).toEqual(accepted);
    for (const [path, rule] of Object.entries(rules)) {
      if (rule.verdict === 'refused' && !path.includes('.') && !path.includes('[')) expect(Object.keys(schema.shape), `${type}.${path}`).not.toContain(path);
    }
  });

  it.each(CHECK_TYPES)('gives every %s field that runs or is inert an example the schema accepts', (type) => {
    for (const [path, rule] of Object.entries(CHECK_FIELD_RULES[type])) {
      if (rule.verdict === 'refused') continue;
      const entry = placeExample(MINIMAL_CHECKS[type], path, rule);
      expect(CHECK_SCHEMAS[type].safeParse(entry).error?.issues ?? [], `${type}.${path}`).toEqual([]);
    }
  });

  it('keeps the canary-level keys of the schema to those the catalogue lets run or keeps as inert', () => {
    const accepted = Object.entries(CANARY_FIELD_RULES)
      .filter(([, rule]) => rule.verdict !== 'refused')
      .map(([key]) => key)
      .sort();
    expect([...CANARY_SPEC_KEYS].sort()).toEqual(accepted);
    expect(Object.keys(canaryLevelSchema.shape).sort()).toEqual(accepted);
  });

  it('offers the canary editor resultMode junit or empty, the two values a save accepts', () => {
    const schema = canarySpecJsonSchema() as { properties?: Record<string, { enum?: unknown[] }> };
    expect(schema.properties?.resultMode?.enum).toEqual(['junit', '']);
    expect(canaryLevelSchema.safeParse({ resultMode: 'junit' }).success).toBe(true);
    expect(canaryLevelSchema.safeParse({ resultMode: 'xml' }).error?.issues.map((issue) => issue.message)).toEqual([
      "'xml' is not a result mode: write junit (the checks reported as one combined result) or leave it out (a result per check)",
    ]);
  });

  it('never names a check type both as run and as not run', () => {
    expect(CHECK_TYPES.filter((type) => type in CHECK_TYPES_NOT_RUN)).toEqual([]);
    expect(Object.keys(CHECK_TYPES_NOT_RUN)).toEqual(expect.arrayContaining(['kubernetesResource', 'junit', 's3', 'restic', 'ldap', 'helm', 'containerd', 'mssql']));
  });

  it('places a value at a catalogue path, merging the objects on the way, and reads it back', () => {
    const entry = placeAt({ name: 'a', tlsConfig: { insecureSkipVerify: true } }, 'tlsConfig.ca', 'pem');
    expect(entry).toEqual({ name: 'a', tlsConfig: { insecureSkipVerify: true, ca: 'pem' } });
    expect(valueAtPath(entry, 'tlsConfig.ca')).toBe('pem');
    expect(placeAt({}, 'headers[].valueFrom', 'x')).toEqual({ headers: [{ valueFrom: 'x' }] });
    expect(placeAt({ env: { A: 'b' } }, 'env[]', 'x')).toEqual({ env: ['x'] });
  });

  it('reads the top-level key of any catalogue path', () => {
    expect(['tlsConfig.ca.valueFrom', 'env[]', 'headers[].valueFrom', 'name'].map(topLevelKey)).toEqual(['tlsConfig', 'env', 'headers', 'name']);
  });
});
