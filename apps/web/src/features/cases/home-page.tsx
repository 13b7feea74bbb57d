import { Link } from 'react-router';
import { Button } from '../../components/button.tsx';
import { EmptyState, PageHeader } from '../../components/card.tsx';
import { DnaIcon, UploadIcon } from '../../components/icons.tsx';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { useSession } from '../../lib/session.tsx';

/**
 * /home. Placeholder until the cases feature lands: it will list the user's products and the
 * products shared with them. Replace this file wholesale.
 */
export function HomePage() {
  const { user } = useSession();
  useDocumentTitle('Home');
  return (
    <>
      <PageHeader
        title={user ? `Welcome, ${user.name}` : 'Welcome'}
        description="Your cases and the cases shared with you."
        actions={
          <Button asChild>
            <Link to="/upload">
              <UploadIcon className="size-4" /> Upload patient data
            </Link>
          </Button>
        }
      />
      <EmptyState icon={<DnaIcon />} title="Your cases will appear here">
        Upload a patient’s VCF or FASTQ file with their clinical symptoms to start a case.
      </EmptyState>
    </>
  );
}
