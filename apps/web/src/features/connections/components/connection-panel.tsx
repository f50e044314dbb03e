import { useState } from 'react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { X } from 'lucide-react';
import type { Connection } from '../api/types';
import { connectionTypeDefinition, type ConnectionTypeDefinition } from '../connection-type-catalog';
import { ConnectionForm } from './connection-form';
import { ConnectionTypeGrid } from './connection-type-grid';

export interface ConnectionPanelProps {
  onClose: () => void;
  /** The connection being edited; without one the panel starts at the type grid. */
  connection?: Connection;
}

/** The side panel of the Connections screen: type grid, then the chosen type's form. */
export function ConnectionPanel({ onClose, connection }: ConnectionPanelProps) {
  const [chosen, setChosen] = useState<ConnectionTypeDefinition | null>(connection ? connectionTypeDefinition(connection.type) : null);
  const title = connection ? 'Edit Connection' : 'Add Connection';

  return (
    <DialogPrimitive.Root
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-black/30" />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 right-0 z-50 flex w-full max-w-3xl flex-col bg-white shadow-xl focus:outline-none"
        >
          <header className="flex items-center gap-2 border-b border-gray-200 px-4 py-3">
            <DialogPrimitive.Title className="flex-1 text-base font-semibold text-gray-900">{title}</DialogPrimitive.Title>
            <DialogPrimitive.Close
              aria-label="Close"
              className="inline-flex size-7 items-center justify-center rounded text-gray-500 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-blue-500"
            >
              <X aria-hidden="true" className="size-4" />
            </DialogPrimitive.Close>
          </header>
          {chosen === null ? (
            <ConnectionTypeGrid onSelect={setChosen} />
          ) : (
            <ConnectionForm
              key={chosen.type}
              definition={chosen}
              connection={connection}
              onBack={connection ? undefined : () => setChosen(null)}
              onDone={onClose}
            />
          )}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
