import { z } from 'zod';

/**
 * Just enough of an OpenAPI 3 document to list its operations. Schemas stay loose (`unknown`) here: they are read
 * field by field by `describeSchema`, which tolerates anything JSON Schema allows.
 */
const parameterSchema = z.looseObject({
  name: z.string(),
  in: z.string(),
  required: z.boolean().optional(),
  description: z.string().optional(),
  schema: z.unknown().optional(),
});

const mediaTypesSchema = z.record(z.string(), z.looseObject({ schema: z.unknown().optional() }));

const operationSchema = z.looseObject({
  tags: z.array(z.string()).optional(),
  summary: z.string().optional(),
  description: z.string().optional(),
  operationId: z.string().optional(),
  deprecated: z.boolean().optional(),
  parameters: z.array(z.unknown()).optional(),
  requestBody: z.unknown().optional(),
  responses: z.record(z.string(), z.unknown()).optional(),
});

export const openApiDocumentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string(), description: z.string().optional() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
  components: z.looseObject({ schemas: z.record(z.string(), z.unknown()).optional() }).optional(),
});
export type OpenApiDocument = z.infer<typeof openApiDocumentSchema>;

export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export const UNTAGGED = 'other';

export interface ApiParameter {
  name: string;
  in: string;
  required: boolean;
  description: string | null;
  schema: SchemaNode;
}

export interface ApiBody {
  contentType: string;
  schema: SchemaNode | null;
}

export interface ApiResponse {
  status: string;
  description: string | null;
  bodies: ApiBody[];
}

export interface ApiOperation {
  /** Stable and unique: usable as an element id and a React key. */
  id: string;
  method: HttpMethod;
  path: string;
  tag: string;
  summary: string | null;
  description: string | null;
  deprecated: boolean;
  /** From an `x-permission` extension, when the document carries one. */
  permission: string | null;
  parameters: ApiParameter[];
  requestBody: { required: boolean; description: string | null; bodies: ApiBody[] } | null;
  responses: ApiResponse[];
}

export interface ApiTagGroup {
  tag: string;
  operations: ApiOperation[];
}

/** One field of a schema as a reader sees it: a name, a type in words, its constraints and its own fields. */
export interface SchemaNode {
  name: string | null;
  type: string;
  required: boolean;
  nullable: boolean;
  description: string | null;
  constraints: string[];
  children: SchemaNode[];
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

const MAX_DEPTH = 12;

class SchemaReader {
  constructor(private readonly components: JsonObject) {}

  /** A local `#/components/schemas/Name` reference, or the schema itself; unknown references stay unresolved. */
  private resolve(schema: JsonObject, seen: ReadonlySet<string>): { schema: JsonObject; ref: string | null; cyclic: boolean } {
    const ref = text(schema.$ref);
    if (ref === null) return { schema, ref: null, cyclic: false };
    const name = ref.startsWith('#/components/schemas/') ? ref.slice('#/components/schemas/'.length) : null;
    const target = name === null ? undefined : this.components[name];
    if (name === null || !isObject(target)) return { schema: {}, ref, cyclic: false };
    return { schema: target, ref: name, cyclic: seen.has(name) };
  }

  describe(raw: unknown, name: string | null, required: boolean, depth = 0, seen: ReadonlySet<string> = new Set()): SchemaNode {
    const node: SchemaNode = { name, type: 'any', required, nullable: false, description: null, constraints: [], children: [] };
    if (!isObject(raw)) return node;
    const { schema, ref, cyclic } = this.resolve(raw, seen);
    if (cyclic || depth > MAX_DEPTH) return { ...node, type: ref ?? 'object', constraints: ['(repeats a schema above)'] };
    const nextSeen = ref === null ? seen : new Set([...seen, ref]);
    node.description = text(raw.description) ?? text(schema.description);
    node.nullable = schema.nullable === true;
    node.constraints = constraintsOf(schema);

    const variants = (Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : null) as unknown[] | null;
    if (variants !== null) {
      const children = variants.map((variant, index) => this.describe(variant, `option ${index + 1}`, false, depth + 1, nextSeen));
      // A variant that only says null makes the field nullable rather than being an option of its own.
      const real = children.filter((child) => child.type !== 'null');
      node.nullable ||= real.length < children.length;
      if (real.length === 1 && real[0] !== undefined) return { ...real[0], name, required, nullable: node.nullable, description: node.description ?? real[0].description };
      return { ...node, type: 'one of', children: real };
    }

    const parts = Array.isArray(schema.allOf) ? (schema.allOf as unknown[]) : [];
    const own = this.objectFields(schema, depth, nextSeen);
    const merged = parts.flatMap((part) => this.describe(part, null, false, depth + 1, nextSeen).children);
    const type = typeOf(schema, ref);

    if (type === 'array') {
      const item = this.describe(schema.items, null, false, depth + 1, nextSeen);
      return { ...node, type: `array of ${item.type}`, children: item.children, constraints: [...node.constraints, ...item.constraints.map((c) => `items: ${c}`)] };
    }
    const children = [...merged, ...own];
    return { ...node, type: parts.length > 0 && type === 'any' ? 'object' : type, children };
  }

  private objectFields(schema: JsonObject, depth: number, seen: ReadonlySet<string>): SchemaNode[] {
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === 'string') : []);
    const properties = isObject(schema.properties) ? schema.properties : {};
    const fields = Object.entries(properties).map(([key, value]) => this.describe(value, key, required.has(key), depth + 1, seen));
    if (isObject(schema.additionalProperties) && Object.keys(properties).length === 0) {
      fields.push(this.describe(schema.additionalProperties, '{any key}', false, depth + 1, seen));
    }
    return fields;
  }
}

function typeOf(schema: JsonObject, ref: string | null): string {
  const type = schema.type;
  if (Array.isArray(type)) return type.filter((part): part is string => typeof part === 'string').join(' or ');
  if (typeof type === 'string') return type;
  if (isObject(schema.properties) || isObject(schema.additionalProperties)) return ref ?? 'object';
  if (schema.items !== undefined) return 'array';
  return ref ?? 'any';
}

function literal(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : JSON.stringify(value) ?? String(value);
}

function constraintsOf(schema: JsonObject): string[] {
  const found: string[] = [];
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.filter((value) => value !== null);
    if (values.length > 0) found.push(`one of ${values.map(literal).join(', ')}`);
  }
  if (schema.const !== undefined) found.push(`always ${literal(schema.const)}`);
  if (typeof schema.format === 'string') found.push(`format ${schema.format}`);
  const bounds: [string, string][] = [
    ['minLength', 'at least {} characters'],
    ['maxLength', 'at most {} characters'],
    ['minimum', '≥ {}'],
    ['maximum', '≤ {}'],
    ['minItems', 'at least {} items'],
    ['maxItems', 'at most {} items'],
  ];
  for (const [key, template] of bounds) {
    const value = schema[key];
    // JavaScript's largest safe integer is zod's default bound for an integer: not a limit worth reading.
    if (typeof value === 'number' && Math.abs(value) < Number.MAX_SAFE_INTEGER) found.push(template.replace('{}', String(value)));
  }
  if (typeof schema.pattern === 'string' && schema.format === undefined) found.push(`matches ${schema.pattern}`);
  if (schema.default !== undefined) found.push(`default ${literal(schema.default)}`);
  return found;
}

function permissionOf(operation: JsonObject): string | null {
  const value = operation['x-permission'];
  if (typeof value === 'string') return value;
  if (isObject(value) && typeof value.resource === 'string' && typeof value.action === 'string') return `${value.action} on ${value.resource}`;
  return null;
}

function bodiesOf(reader: SchemaReader, content: unknown): ApiBody[] {
  const media = mediaTypesSchema.safeParse(content);
  if (!media.success) return [];
  return Object.entries(media.data).map(([contentType, entry]) => ({
    contentType,
    schema: entry.schema === undefined ? null : reader.describe(entry.schema, null, false),
  }));
}

function operationOf(reader: SchemaReader, path: string, method: HttpMethod, raw: unknown, shared: unknown[]): ApiOperation | null {
  const parsed = operationSchema.safeParse(raw);
  if (!parsed.success) return null;
  const operation = parsed.data;
  const parameters = [...shared, ...(operation.parameters ?? [])].flatMap((entry) => {
    const parameter = parameterSchema.safeParse(entry);
    if (!parameter.success) return [];
    const { name, in: location, required, description, schema } = parameter.data;
    return [{ name, in: location, required: required === true || location === 'path', description: text(description), schema: reader.describe(schema, name, false) }];
  });
  const body = isObject(operation.requestBody) ? operation.requestBody : null;
  const responses = Object.entries(operation.responses ?? {}).map(([status, response]) => ({
    status,
    description: isObject(response) ? text(response.description) : null,
    bodies: isObject(response) ? bodiesOf(reader, response.content) : [],
  }));
  return {
    id: `${method}-${path}`.replace(/[^a-zA-Z0-9_-]+/g, '-'),
    method,
    path,
    tag: operation.tags?.[0] ?? UNTAGGED,
    summary: text(operation.summary),
    description: text(operation.description),
    deprecated: operation.deprecated === true,
    permission: permissionOf(operation),
    parameters,
    requestBody: body === null ? null : { required: body.required === true, description: text(body.description), bodies: bodiesOf(reader, body.content) },
    responses,
  };
}

/** Every operation of the document, grouped by its first tag; groups and operations sorted for reading. */
export function groupOperations(document: OpenApiDocument): ApiTagGroup[] {
  const reader = new SchemaReader(document.components?.schemas ?? {});
  const groups = new Map<string, ApiOperation[]>();
  for (const [path, item] of Object.entries(document.paths)) {
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of HTTP_METHODS) {
      if (item[method] === undefined) continue;
      const operation = operationOf(reader, path, method, item[method], shared);
      if (operation === null) continue;
      groups.set(operation.tag, [...(groups.get(operation.tag) ?? []), operation]);
    }
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === UNTAGGED ? 1 : b === UNTAGGED ? -1 : a.localeCompare(b)))
    .map(([tag, operations]) => ({
      tag,
      operations: operations.sort((a, b) => a.path.localeCompare(b.path) || HTTP_METHODS.indexOf(a.method) - HTTP_METHODS.indexOf(b.method)),
    }));
}

/** The groups with only the operations whose method, path, summary, description or tag contain every word typed. */
export function filterOperations(groups: readonly ApiTagGroup[], query: string): ApiTagGroup[] {
  const words = query.toLowerCase().split(/\s+/).filter((word) => word !== '');
  if (words.length === 0) return [...groups];
  return groups
    .map((group) => ({
      tag: group.tag,
      operations: group.operations.filter((operation) => {
        const haystack = [operation.method, operation.path, operation.summary, operation.description, operation.tag, operation.permission].join(' ').toLowerCase();
        return words.every((word) => haystack.includes(word));
      }),
    }))
    .filter((group) => group.operations.length > 0);
}
