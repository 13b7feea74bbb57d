import { EmptyState, PageHeader } from '../../components/card.tsx';
import { UploadIcon } from '../../components/icons.tsx';
import { useDocumentTitle } from '../../lib/document-title.ts';

/** /upload. Placeholder until the upload feature lands; replace this file wholesale. */
export function UploadPage() {
  useDocumentTitle('Genome Upload');
  return (
    <>
      <PageHeader title="Genome Upload" description="Upload patient data: the genome file, clinical symptoms and up to five additional files." />
      <EmptyState icon={<UploadIcon />} title="Genome upload is not available yet">
        Uploading VCF and FASTQ files will be enabled here.
      </EmptyState>
    </>
  );
}
