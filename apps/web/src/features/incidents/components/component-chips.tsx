import { Link } from 'react-router';
import { HealthDot } from '@/components/status/health-dot';
import type { IncidentDetail, LinkedComponent } from '../api/types';

/** The topology components the incident's evidence points at, once each. */
export function referencedComponents(incident: IncidentDetail): LinkedComponent[] {
  const seen = new Map<string, LinkedComponent>();
  for (const hypothesis of incident.hypotheses) {
    for (const evidence of hypothesis.evidences) {
      if (evidence.component && !seen.has(evidence.component.id)) seen.set(evidence.component.id, evidence.component);
    }
  }
  return [...seen.values()];
}

export function ComponentChips({ incident }: { incident: IncidentDetail }) {
  const components = referencedComponents(incident);
  if (components.length === 0) return null;
  return (
    <ul aria-label="Components" className="flex flex-wrap gap-1.5">
      {components.map((component) => (
        <li key={component.id}>
          <Link
            to={`/topology/${component.id}`}
            className="inline-flex items-center gap-1.5 rounded-full bg-white px-2.5 py-0.5 text-xs text-gray-800 ring-1 ring-gray-300 hover:bg-gray-50"
          >
            <HealthDot status={component.status} />
            {component.name}
          </Link>
        </li>
      ))}
    </ul>
  );
}
