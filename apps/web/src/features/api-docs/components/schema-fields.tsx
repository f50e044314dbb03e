import type { SchemaNode } from '../openapi-model';

function FieldLine({ node }: { node: SchemaNode }) {
  return (
    <div className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
      {node.name !== null && <code className="font-mono text-sm font-medium text-gray-900">{node.name}</code>}
      <span className="text-xs text-purple-700">
        {node.type}
        {node.nullable && ' or null'}
      </span>
      {node.required && <span className="rounded bg-red-50 px-1 text-xs font-medium text-red-700">required</span>}
      {node.constraints.length > 0 && <span className="text-xs text-gray-500">{node.constraints.join(' · ')}</span>}
      {node.description !== null && <p className="w-full text-xs text-gray-600">{node.description}</p>}
    </div>
  );
}

function FieldList({ nodes }: { nodes: readonly SchemaNode[] }) {
  return (
    <ul className="flex flex-col gap-1.5 border-l border-gray-200 pl-3">
      {nodes.map((node, index) => (
        <li key={`${node.name ?? 'item'}-${index}`}>
          <FieldLine node={node} />
          {node.children.length > 0 && (
            <div className="mt-1.5">
              <FieldList nodes={node.children} />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}

export interface SchemaFieldsProps {
  schema: SchemaNode;
}

/** A schema as nested fields: each with its type, whether it is required, its limits and its own fields. */
export function SchemaFields({ schema }: SchemaFieldsProps) {
  return (
    <div className="flex flex-col gap-1.5">
      <FieldLine node={{ ...schema, name: null }} />
      {schema.children.length > 0 && <FieldList nodes={schema.children} />}
    </div>
  );
}
