/**
 * A kubernetes source's `relationships` (config-db's KubernetesRelationshipSelectorTemplate): for every listed object,
 * each rule's kind, name and namespace are looked up (duty's Lookup: `value`, else the object's label `label`, else
 * CEL `expr` over its `metadata` and `spec`), and every config of the catalog tagged with this cluster that has that
 * kind, name and namespace becomes the object's related parent. A lookup that is given but comes out empty drops the
 * rule for that object, as config-db's Eval does; one left out does not narrow the search.
 */
import type { ScrapedRelationship, ScrapeError } from '../types';
import { record, stringMap, text } from '../../../platform/json-values';
import { evaluateCel } from '../transform/scrape-cel';
import { kubernetesType, type KubernetesObject } from './kubernetes-relations';

const FIELDS = ['kind', 'name', 'namespace'] as const;
type Field = (typeof FIELDS)[number];

/** One lookup's text, or undefined when the rule does not give this field. */
function lookupText(raw: unknown, object: KubernetesObject): string | undefined {
  const lookup = record(raw);
  const value = text(lookup.value);
  if (value !== undefined) return value;
  const label = text(lookup.label);
  if (label !== undefined) return stringMap(record(object.body.metadata).labels)[label] ?? '';
  const expr = text(lookup.expr);
  if (expr === undefined) return undefined;
  const spec = object.body.spec;
  const result = evaluateCel('object', expr, { metadata: record(object.body.metadata), spec: typeof spec === 'object' && spec !== null && !Array.isArray(spec) ? spec : {} });
  if (result === null) return '';
  if (typeof result === 'string' || typeof result === 'number' || typeof result === 'boolean') return String(result);
  throw new Error(`'${expr}' returned a ${Array.isArray(result) ? 'list' : 'map'}, not text`);
}

/** The links every rule makes from the catalog to the listed objects, and an error per rule and object that failed. */
export function lookupRelationships(objects: readonly KubernetesObject[], rules: readonly unknown[], clusterName: string, label: string): { relationships: ScrapedRelationship[]; errors: ScrapeError[] } {
  const relationships: ScrapedRelationship[] = [];
  const errors: ScrapeError[] = [];
  for (const object of objects) {
    rules.forEach((raw, index) => {
      const rule = record(raw);
      const found: Partial<Record<Field, string>> = {};
      try {
        for (const field of FIELDS) {
          const value = lookupText(rule[field], object);
          if (value === '') return;
          if (value !== undefined) found[field] = value;
        }
      } catch (error) {
        errors.push({ where: `${label} relationships[${index}] ${object.kind}/${object.namespace ?? ''}/${object.name}`, message: error instanceof Error ? error.message : String(error) });
        return;
      }
      if (Object.keys(found).length === 0) return;
      relationships.push({
        from: {
          lookup: {
            cluster: clusterName,
            ...(found.kind === undefined ? {} : { type: kubernetesType(found.kind) }),
            ...(found.name === undefined ? {} : { name: found.name }),
            ...(found.namespace === undefined ? {} : { namespace: found.namespace }),
          },
        },
        to: { type: kubernetesType(object.kind), externalId: object.uid },
        relation: 'related',
      });
    });
  }
  return { relationships, errors };
}
