import { EmptyState, PageHeader } from '../../components/card.tsx';
import { ShareIcon } from '../../components/icons.tsx';
import { useDocumentTitle } from '../../lib/document-title.ts';

/** /my-product/share-settings. Placeholder until the sharing feature lands; replace wholesale. */
export function ShareSettingsPage() {
  useDocumentTitle('Share settings');
  return (
    <>
      <PageHeader title="Share settings" description="People you have shared phenotypes with." />
      <EmptyState icon={<ShareIcon />} title="Nothing shared yet">
        Phenotypes you share with other users by email will be listed here.
      </EmptyState>
    </>
  );
}
