import { Link } from 'react-router';
import { useDocumentTitle } from '@/lib/use-document-title';
import { DECISION_RECORDS, PROJECT_DOCS } from '../project-docs';

/** Where Help → Documentation leads: the API reference and the project's own docs, all inside the app. */
export function DocsIndexPage() {
  useDocumentTitle('Documentation');
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-6 p-4 sm:p-6">
      <h1 className="text-lg font-semibold text-gray-900">Documentation</h1>
      <ul className="flex flex-col gap-3">
        <li>
          <Link to="/docs/api" className="font-medium text-blue-700 underline">
            API Reference
          </Link>
          <p className="text-sm text-gray-600">Every endpoint of the running server, its parameters, bodies and answers.</p>
        </li>
        {Object.values(PROJECT_DOCS).map((doc) => (
          <li key={doc.slug}>
            <Link to={`/docs/${doc.slug}`} className="font-medium text-blue-700 underline">
              {doc.title}
            </Link>
            <p className="text-sm text-gray-600">{doc.description}</p>
          </li>
        ))}
      </ul>
      {DECISION_RECORDS.length > 0 && (
        <section aria-labelledby="decision-records" className="flex flex-col gap-2">
          <h2 id="decision-records" className="text-base font-semibold text-gray-900">
            Architecture decision records
          </h2>
          <ul className="flex flex-col gap-1 text-sm">
            {DECISION_RECORDS.map((doc) => (
              <li key={doc.slug}>
                <Link to={`/docs/${doc.slug}`} className="text-blue-700 underline">
                  {doc.title}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
    </section>
  );
}
