import type { FamilyResponse, ProductDetails } from '@rarelens/contract';
import { useMutation } from '@tanstack/react-query';
import { Button } from '../../components/button.tsx';
import { Alert, Card } from '../../components/card.tsx';
import { saveFile } from '../../lib/download.ts';
import { familyApi, useFamily } from './family.api.ts';
import { PedigreeDrawing } from './pedigree-drawing.tsx';

const pct = (x: number): string => `${(100 * x).toFixed(2)} %`;

/** The case's family: a small pedigree drawing, the members and the trio QC figures. */
export function FamilyPanel({ family, productId }: { family: FamilyResponse; productId?: string }) {
  const ped = useMutation({
    mutationFn: (id: string) => familyApi.ped(id),
    onSuccess: (file) => saveFile(file),
  });
  if (family.members.length < 2) return null;
  return (
    <Card className="p-5" data-testid="family-panel">
      <div className="flex items-start justify-between gap-3">
        <h2 className="text-base font-semibold text-ink-900">Family</h2>
        {productId ? (
          <Button variant="outline" size="sm" isLoading={ped.isPending} onClick={() => ped.mutate(productId)}>
            Download PED
          </Button>
        ) : null}
      </div>
      {ped.isError ? (
        <Alert tone="error" className="mt-2">
          Sorry, the PED file could not be downloaded. Please try again.
        </Alert>
      ) : null}
      <p className="mt-0.5 text-sm text-ink-500">
        Proband {family.proband}; {family.members.filter((m) => m.sequenced).length} of {family.members.length} members sequenced.
      </p>
      <div className="mt-4 overflow-x-auto">
        <PedigreeDrawing members={family.members} proband={family.proband} />
      </div>
      {family.qc.map((q) => (
        <div key={q.child} className="mt-4 text-sm text-ink-700" data-testid="trio-qc">
          <p>
            <span className="font-medium text-ink-900">Trio {q.child}</span> ({q.father} × {q.mother}): Mendelian error rate{' '}
            <span className="font-mono tabular-nums">{pct(q.qcRate)}</span> over {q.qcSites.toLocaleString('en-US')} quality-passing sites (
            {pct(q.rate)} before quality filters); opposite homozygotes {pct(q.fatherCheck.rate)} with the father, {pct(q.motherCheck.rate)} with the
            mother.
          </p>
          {q.warning ? (
            <Alert tone="error" className="mt-2">
              {q.warning}
            </Alert>
          ) : null}
        </div>
      ))}
      {family.notes.map((n) => (
        <p key={n} className="mt-2 text-xs text-ink-500">
          {n}
        </p>
      ))}
    </Card>
  );
}

/** The family panel of an analysed case (nothing for a single-sample case). */
export function CaseFamily({ product }: { product: ProductDetails }) {
  const family = useFamily(product.id, product.run?.id ?? null);
  if (!family.data || family.data.members.length < 2) return null;
  return (
    <div className="mb-5">
      <FamilyPanel family={family.data} productId={product.id} />
    </div>
  );
}
