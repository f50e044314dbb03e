import type { ReactNode } from 'react';
import { clsx } from 'clsx';
import type { ApiBody, ApiOperation, HttpMethod } from '../openapi-model';
import { SchemaFields } from './schema-fields';

const METHOD_CLASSES: Record<HttpMethod, string> = {
  get: 'bg-blue-100 text-blue-800',
  post: 'bg-green-100 text-green-800',
  put: 'bg-amber-100 text-amber-800',
  patch: 'bg-amber-100 text-amber-800',
  delete: 'bg-red-100 text-red-800',
  head: 'bg-gray-100 text-gray-700',
  options: 'bg-gray-100 text-gray-700',
  trace: 'bg-gray-100 text-gray-700',
};

export function MethodBadge({ method }: { method: HttpMethod }) {
  return <span className={clsx('inline-block w-16 shrink-0 rounded px-1.5 py-0.5 text-center font-mono text-xs font-semibold uppercase', METHOD_CLASSES[method])}>{method}</span>;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-2">
      <h4 className="text-xs font-semibold tracking-wide text-gray-500 uppercase">{title}</h4>
      {children}
    </section>
  );
}

function Bodies({ bodies }: { bodies: readonly ApiBody[] }) {
  if (bodies.length === 0) return <p className="text-xs text-gray-500">No body</p>;
  return (
    <>
      {bodies.map((body) => (
        <div key={body.contentType} className="flex flex-col gap-1">
          <p className="font-mono text-xs text-gray-500">{body.contentType}</p>
          {body.schema === null ? <p className="text-xs text-gray-500">No schema</p> : <SchemaFields schema={body.schema} />}
        </div>
      ))}
    </>
  );
}

function statusClass(status: string): string {
  if (status.startsWith('2')) return 'text-green-700';
  if (status.startsWith('4') || status.startsWith('5')) return 'text-red-700';
  return 'text-gray-700';
}

export interface OperationDetailsProps {
  operation: ApiOperation;
}

/** One operation, folded to its method, path and summary until opened. */
export function OperationDetails({ operation }: OperationDetailsProps) {
  return (
    <details id={operation.id} className="group rounded-md border border-gray-200 bg-white">
      <summary className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 hover:bg-gray-50">
        <MethodBadge method={operation.method} />
        <code className={clsx('font-mono text-sm break-all text-gray-900', operation.deprecated && 'line-through')}>{operation.path}</code>
        {operation.summary !== null && <span className="text-sm text-gray-600">{operation.summary}</span>}
      </summary>
      <div className="flex flex-col gap-4 border-t border-gray-200 px-3 py-3">
        {operation.description !== null && <p className="text-sm whitespace-pre-line text-gray-700">{operation.description}</p>}
        {operation.deprecated && <p className="text-sm text-amber-700">Deprecated: avoid in new integrations.</p>}
        {operation.permission !== null && (
          <p className="text-sm text-gray-700">
            <span className="font-medium">Permission:</span> {operation.permission}
          </p>
        )}
        {operation.parameters.length > 0 && (
          <Section title="Parameters">
            <ul className="flex flex-col gap-2">
              {operation.parameters.map((parameter) => (
                <li key={`${parameter.in}-${parameter.name}`} className="flex flex-col gap-0.5">
                  <div className="flex flex-wrap items-baseline gap-x-2">
                    <code className="font-mono text-sm font-medium text-gray-900">{parameter.name}</code>
                    <span className="text-xs text-gray-500">in {parameter.in}</span>
                    {parameter.required && <span className="rounded bg-red-50 px-1 text-xs font-medium text-red-700">required</span>}
                  </div>
                  {parameter.description !== null && <p className="text-xs text-gray-600">{parameter.description}</p>}
                  <SchemaFields schema={{ ...parameter.schema, description: null }} />
                </li>
              ))}
            </ul>
          </Section>
        )}
        {operation.requestBody !== null && (
          <Section title={operation.requestBody.required ? 'Request body (required)' : 'Request body'}>
            {operation.requestBody.description !== null && <p className="text-xs text-gray-600">{operation.requestBody.description}</p>}
            <Bodies bodies={operation.requestBody.bodies} />
          </Section>
        )}
        <Section title="Responses">
          {operation.responses.length === 0 ? (
            <p className="text-xs text-gray-500">Not documented</p>
          ) : (
            <ul className="flex flex-col gap-3">
              {operation.responses.map((response) => (
                <li key={response.status} className="flex flex-col gap-1">
                  <p className="text-sm">
                    <span className={clsx('font-mono font-semibold', statusClass(response.status))}>{response.status}</span>
                    {response.description !== null && response.description !== 'Default Response' && <span className="ml-2 text-gray-600">{response.description}</span>}
                  </p>
                  {response.bodies.length > 0 && <Bodies bodies={response.bodies} />}
                </li>
              ))}
            </ul>
          )}
        </Section>
      </div>
    </details>
  );
}
