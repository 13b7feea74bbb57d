import { Alert } from '../../components/card.tsx';
import { DemoReferenceLabel } from './demo-reference-label.tsx';
import { useReadsReference } from './raw-data.api.ts';

/**
 * On the upload form, once a FASTQ is chosen: the reference its reads will be aligned to, and
 * loudly when that is the shipped demo reference (hg19 chrM + 5 kb of chr20), not a genome.
 */
export function UploadReferenceNotice() {
  const reference = useReadsReference();
  const ref = reference.data;
  if (!ref) return null;
  if (ref.error) {
    return (
      <div className="mt-3" data-testid="upload-reference-error">
        <Alert tone="error">FASTQ reads cannot be aligned on this server: {ref.error}</Alert>
      </div>
    );
  }
  if (!ref.demo) {
    return (
      <p className="mt-2 text-xs text-ink-500" data-testid="upload-reference">
        The reads will be aligned to {ref.label}.
      </p>
    );
  }
  return (
    <div className="mt-3" data-testid="upload-demo-reference">
      <Alert>
        <span className="flex flex-wrap items-center gap-2">
          <DemoReferenceLabel />
          <span>
            The reads will be aligned to the small demo reference shipped with RareLens (hg19 chrM
            and 5 kb of chr20), not to a genome: variants anywhere else cannot be found. An
            administrator sets RARELENS_REFERENCE for a real genome.
          </span>
        </span>
      </Alert>
    </div>
  );
}
