import { HIDE_DELETED_CATALOG_DEFAULT } from '@opsdeck/shared';
import { Switch } from '@/components/switch/switch';
import { HIDE_DELETED_CATALOG_KEY, usePreference } from '@/lib/preferences/use-preference';
import { useDocumentTitle } from '@/lib/use-document-title';

export function PreferencesPage() {
  useDocumentTitle('Preferences');
  const [hideDeleted, setHideDeleted] = usePreference(HIDE_DELETED_CATALOG_KEY, HIDE_DELETED_CATALOG_DEFAULT);
  return (
    <section className="mx-auto flex max-w-2xl flex-col gap-4 p-6">
      <h1 className="text-lg font-semibold text-gray-900">Preferences</h1>
      <div className="flex items-center justify-between gap-4 rounded-md border border-gray-200 bg-white p-4">
        <div className="flex flex-col">
          <label htmlFor="hide-deleted-catalog" className="text-sm font-medium text-gray-800">
            Hide Deleted Catalog
          </label>
          <p id="hide-deleted-catalog-hint" className="text-xs text-gray-500">
            Leave deleted items out of catalog lists.
          </p>
        </div>
        <Switch
          id="hide-deleted-catalog"
          describedBy="hide-deleted-catalog-hint"
          checked={hideDeleted === 'yes'}
          onCheckedChange={(checked) => setHideDeleted(checked ? 'yes' : 'no')}
        />
      </div>
    </section>
  );
}
