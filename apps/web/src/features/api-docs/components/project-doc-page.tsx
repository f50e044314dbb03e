import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { QueryError } from '@/components/status/query-error';
import { useDocumentTitle } from '@/lib/use-document-title';
import { apiDocsKeys } from '../api/keys';
import { projectDocBySlug, projectDocHref } from '../project-docs';
import { MarkdownView } from '@/components/markdown/markdown-view';

/** One bundled doc of the repository (README, docs/*.md, ADRs), at /docs/<slug>. */
export function ProjectDocPage() {
  const slug = useParams()['*'] ?? '';
  const doc = projectDocBySlug(slug);
  useDocumentTitle(doc?.title ?? 'Document not found');
  const content = useQuery({
    queryKey: [...apiDocsKeys.all, 'project-doc', slug],
    queryFn: () => (doc === undefined ? Promise.resolve('') : doc.load()),
    enabled: doc !== undefined,
    staleTime: Infinity,
  });

  return (
    <section className="mx-auto flex max-w-4xl flex-col gap-4 p-4 sm:p-6">
      <nav aria-label="Breadcrumb" className="text-sm text-gray-600">
        <Link to="/docs" className="text-blue-700 underline">
          Documentation
        </Link>
        {doc !== undefined && <span> / {doc.title}</span>}
      </nav>
      {doc === undefined ? (
        <p role="alert" className="text-sm text-gray-700">
          There is no document named “{slug}”.
        </p>
      ) : content.isPending ? (
        <p role="status" aria-busy="true" className="text-sm text-gray-500">
          Loading {doc.title}…
        </p>
      ) : content.isError ? (
        <QueryError subject={doc.title} error={content.error} onRetry={() => void content.refetch()} />
      ) : content.data.trim() === '' ? (
        <p className="text-sm text-gray-600">This document is empty.</p>
      ) : (
        <MarkdownView source={content.data} resolveHref={(href) => projectDocHref(doc.slug, href)} />
      )}
    </section>
  );
}
