import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Search } from 'lucide-react';
import { QueryError } from '@/components/status/query-error';
import { useDocumentTitle } from '@/lib/use-document-title';
import { OPENAPI_URL, useOpenApiDocument } from '../api/get-openapi-document';
import { filterOperations, groupOperations } from '../openapi-model';
import { PROJECT_DOCS } from '../project-docs';
import { OperationDetails } from './operation-details';

const SEARCH_PARAM = 'q';

function tagAnchor(tag: string): string {
  return `tag-${tag.replace(/[^a-zA-Z0-9_-]+/g, '-')}`;
}

/** The running server's API, read from its OpenAPI document: operations grouped by tag, searchable, each foldable. */
export function ApiDocsPage() {
  useDocumentTitle('API Reference');
  const document = useOpenApiDocument();
  const [searchParams, setSearchParams] = useSearchParams();
  const query = searchParams.get(SEARCH_PARAM) ?? '';
  const groups = useMemo(() => (document.data === undefined ? [] : groupOperations(document.data)), [document.data]);
  const visible = useMemo(() => filterOperations(groups, query), [groups, query]);
  const total = groups.reduce((sum, group) => sum + group.operations.length, 0);

  const handleSearch = (value: string) =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === '') next.delete(SEARCH_PARAM);
        else next.set(SEARCH_PARAM, value);
        return next;
      },
      { replace: true },
    );

  return (
    <section className="mx-auto flex max-w-5xl flex-col gap-4 p-4 sm:p-6">
      <header className="flex flex-col gap-1">
        <h1 className="text-lg font-semibold text-gray-900">API Reference</h1>
        {document.data !== undefined && (
          <p className="text-sm text-gray-600">
            {document.data.info.title} {document.data.info.version}
            {document.data.info.description !== undefined && ` — ${document.data.info.description}`}
          </p>
        )}
        <p className="text-xs text-gray-500">
          Calls authenticate with the session cookie of a signed-in user. The machine-readable document is{' '}
          <a href={OPENAPI_URL} className="text-blue-700 underline">
            {OPENAPI_URL}
          </a>
          ; the data API under <code className="font-mono">/api/db</code> follows PostgREST (
          <Link to={`/docs/${PROJECT_DOCS.queryGrammar.slug}`} className="text-blue-700 underline">
            query grammar
          </Link>
          ).
        </p>
      </header>
      <label className="relative block max-w-md">
        <span className="sr-only">Search operations</span>
        <Search aria-hidden="true" className="pointer-events-none absolute top-2 left-2.5 size-4 text-gray-400" />
        <input
          type="search"
          value={query}
          onChange={(event) => handleSearch(event.target.value)}
          placeholder="Search by path, method or description"
          className="w-full rounded-md border border-gray-300 bg-white py-1.5 pr-3 pl-8 text-sm focus:border-blue-500 focus:outline-none"
        />
      </label>
      {document.isPending ? (
        <p role="status" aria-busy="true" className="text-sm text-gray-500">
          Loading the API reference…
        </p>
      ) : document.isError ? (
        <QueryError subject="The API reference" error={document.error} onRetry={() => void document.refetch()} />
      ) : total === 0 ? (
        <p className="text-sm text-gray-600">The server documents no operations.</p>
      ) : visible.length === 0 ? (
        <p className="text-sm text-gray-600">No operation matches “{query}”.</p>
      ) : (
        <>
          <nav aria-label="API tags" className="flex flex-wrap gap-2">
            {visible.map((group) => (
              <a key={group.tag} href={`#${tagAnchor(group.tag)}`} className="rounded-full bg-gray-100 px-2.5 py-0.5 text-xs text-gray-700 hover:bg-gray-200">
                {group.tag} ({group.operations.length})
              </a>
            ))}
          </nav>
          {visible.map((group) => (
            <section key={group.tag} aria-labelledby={tagAnchor(group.tag)} className="flex flex-col gap-2">
              <h2 id={tagAnchor(group.tag)} className="text-base font-semibold text-gray-900 capitalize">
                {group.tag}
              </h2>
              {group.operations.map((operation) => (
                <OperationDetails key={operation.id} operation={operation} />
              ))}
            </section>
          ))}
        </>
      )}
    </section>
  );
}
