import { SELECTABLE_CONNECTION_TYPES, type ConnectionCategory, type ConnectionTypeDefinition } from '../connection-type-catalog';

const SECTIONS: readonly { category: ConnectionCategory; title: string }[] = [
  { category: 'data', title: 'Connections' },
  { category: 'notification', title: 'Notifications' },
];

export interface ConnectionTypeGridProps {
  onSelect: (definition: ConnectionTypeDefinition) => void;
}

/** The connection types to choose from, five per row (spec 002 §2.2). */
export function ConnectionTypeGrid({ onSelect }: ConnectionTypeGridProps) {
  return (
    <div className="flex flex-col gap-4 overflow-y-auto px-4 py-3">
      {SECTIONS.map((section) => (
        <section key={section.category} aria-label={section.title}>
          <h3 className="mb-2 text-xs font-semibold tracking-wide text-gray-500 uppercase">{section.title}</h3>
          <ul className="grid grid-cols-5 gap-2">
            {SELECTABLE_CONNECTION_TYPES.filter((definition) => definition.category === section.category).map((definition) => {
              const Icon = definition.icon;
              return (
                <li key={definition.type}>
                  <button
                    type="button"
                    onClick={() => onSelect(definition)}
                    className="flex h-20 w-full flex-col items-center justify-center gap-1.5 rounded-md p-2 text-center text-xs text-gray-800 ring-1 ring-gray-200 hover:bg-gray-50 hover:ring-blue-300 focus-visible:outline-2 focus-visible:outline-blue-500"
                  >
                    <Icon aria-hidden="true" className="size-6 text-gray-600" />
                    <span className="line-clamp-2">{definition.label}</span>
                  </button>
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </div>
  );
}
