import { Validator, type OutputUnit, type Schema } from '@cfworker/json-schema';
import { isMap, isNode, isPair, isScalar, parseDocument, type Document, type Node as YamlNode } from 'yaml';

/** `text`: edited as it is, with nothing to parse or check. */
export type CodeLanguage = 'yaml' | 'json' | 'text';

/** A JSON Schema (draft 2020-12, as zod's toJSONSchema writes it), as plain data. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** One problem in the text, by character offsets, as the editor underlines it. */
export interface TextDiagnostic {
  from: number;
  to: number;
  severity: 'error' | 'warning';
  message: string;
}

/** Checks a parsed value against a schema; the editor builds one per schema. */
export type SchemaCheck = (value: unknown) => readonly OutputUnit[];

export function schemaCheck(schema: JsonSchema): SchemaCheck {
  // The validator writes resolved references into the schema it is given; the caller's object stays untouched.
  const validator = new Validator(structuredClone(schema) as Schema, '2020-12', false);
  return (value) => validator.validate(value).errors;
}

/**
 * Keywords whose failure only says that something below them failed; the failure below is the one worth showing.
 * anyOf and oneOf are the other way round: their branches' failures are noise, the keyword's own failure is kept.
 */
const WRAPPER_KEYWORDS = new Set([
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
  'allOf',
  '$ref',
  '$recursiveRef',
  '$dynamicRef',
  'dependentSchemas',
  'if',
  'then',
  'else',
]);
const ALTERNATIVE_KEYWORDS = new Set(['anyOf', 'oneOf']);

function lineEnd(text: string, from: number): number {
  const end = text.indexOf('\n', from);
  return end === -1 ? text.length : end;
}

function firstLine(text: string, from = 0): Pick<TextDiagnostic, 'from' | 'to'> {
  return { from, to: Math.max(from, lineEnd(text, from)) };
}

/** '#/spec/http/0/url' → ['spec', 'http', '0', 'url'] (JSON Pointer escapes undone). */
function pointerPath(location: string): string[] {
  const pointer = decodeURI(location.replace(/^#/, ''));
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function nodeAt(doc: Document, path: readonly string[]): unknown {
  return path.length === 0 ? doc.contents : doc.getIn(path, true);
}

function keyNode(doc: Document, path: readonly string[]): YamlNode | null {
  const parent = nodeAt(doc, path.slice(0, -1));
  if (!isMap(parent)) return null;
  const pair = parent.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === path[path.length - 1]);
  return pair !== undefined && isScalar(pair.key) ? pair.key : null;
}

/**
 * Where a failure at `path` is underlined: a scalar itself (unless the key is at fault); an object or list by its key,
 * or else its first line.
 */
function rangeOf(doc: Document, text: string, path: readonly string[], keyAtFault: boolean): Pick<TextDiagnostic, 'from' | 'to'> {
  const node = nodeAt(doc, path);
  if (!keyAtFault && isScalar(node) && node.range) return { from: node.range[0], to: Math.max(node.range[1], node.range[0] + 1) };
  const key = path.length > 0 ? keyNode(doc, path) : null;
  if (key?.range) return { from: key.range[0], to: key.range[1] };
  const start = isNode(node) && node.range ? node.range[0] : 0;
  return firstLine(text, start);
}

/** An extra property fails the `false` schema that `additionalProperties: false` stands for. */
function isUnknownProperty(unit: OutputUnit, path: readonly string[], doc: Document): boolean {
  return unit.keyword === 'false' && path.length > 0 && isMap(nodeAt(doc, path.slice(0, -1)));
}

function describe(unit: OutputUnit, path: readonly string[], unknownProperty: boolean): string {
  if (unknownProperty) return `Unknown property "${path[path.length - 1] ?? ''}".`;
  if (unit.keyword === 'required') return unit.error.replace('Instance does not have required property', 'Missing required property');
  return unit.error;
}

function schemaProblems(doc: Document, text: string, check: SchemaCheck): TextDiagnostic[] {
  const units = check(doc.toJS());
  const alternatives = units.filter((unit) => ALTERNATIVE_KEYWORDS.has(unit.keyword)).map((unit) => `${unit.keywordLocation}/`);
  const seen = new Set<string>();
  const problems: TextDiagnostic[] = [];
  for (const unit of units) {
    if (WRAPPER_KEYWORDS.has(unit.keyword)) continue;
    if (alternatives.some((prefix) => unit.keywordLocation.startsWith(prefix))) continue;
    const path = pointerPath(unit.instanceLocation);
    const unknownProperty = isUnknownProperty(unit, path, doc);
    const problem: TextDiagnostic = { ...rangeOf(doc, text, path, unknownProperty), severity: 'error', message: describe(unit, path, unknownProperty) };
    const identity = `${problem.from}:${problem.to}:${problem.message}`;
    if (seen.has(identity)) continue;
    seen.add(identity);
    problems.push(problem);
  }
  return problems;
}

function jsonSyntaxProblem(text: string): TextDiagnostic | null {
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    const message = error instanceof Error ? error.message : 'Not valid JSON';
    const position = /at position (\d+)/.exec(message);
    const from = position ? Math.min(Number(position[1]), text.length) : text.length;
    return { from, to: Math.min(from + 1, text.length), severity: 'error', message };
  }
}

function problemsOf(text: string, language: CodeLanguage, check: SchemaCheck | undefined): TextDiagnostic[] {
  if (language === 'json') {
    const problem = jsonSyntaxProblem(text);
    if (problem !== null) return [problem];
  }
  const doc = parseDocument(text, { prettyErrors: false });
  if (doc.errors.length > 0) {
    return doc.errors.map((error) => ({ from: error.pos[0], to: Math.max(error.pos[1], error.pos[0] + 1), severity: 'error', message: error.message }));
  }
  return check === undefined ? [] : schemaProblems(doc, text, check);
}

/**
 * The problems of a YAML or JSON text: its syntax errors, else what the schema refuses (when one is given). A blank
 * text has none: it stands for "nothing set".
 */
export function textDiagnostics(text: string, language: CodeLanguage, check?: SchemaCheck): TextDiagnostic[] {
  if (text.trim() === '' || language === 'text') return [];
  // A parser may point just past the end (an unclosed bracket); the editor refuses positions outside the text.
  return problemsOf(text, language, check).map((problem) => {
    const from = Math.min(problem.from, text.length);
    return { ...problem, from, to: Math.min(Math.max(problem.to, from), text.length) };
  });
}
