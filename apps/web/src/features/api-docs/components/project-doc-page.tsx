import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Button } from '@/components/button/button';
import { errorMessage } from '@/components/toast/toast';
import { useDocumentTitle } from '@/lib/use-document-title';
import { apiDocsKeys } from '../api/keys';
import { projectDocBySlug, projectDocHref } from '../project-docs';
import { MarkdownView } from './markdown-view';

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
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-700">
          <p>
            {doc.title} could not be loaded: {errorMessage(content.error)}
          </p>
          <Button variant="secondary" className="mt-2" onClick={() => void content.refetch()}>
            Try again
          </Button>
        </div>
      ) : content.data.trim() === '' ? (
        <p className="text-sm text-gray-600">This document is empty.</p>
      ) : (
        <MarkdownView source={content.data} resolveHref={(href) => projectDocHref(doc.slug, href)} />
      )}
    </section>
  );
}
