import { MaxInterpretationLength, Messages, type ProductDetails, type ReportItem } from '@rarelens/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Button } from '../../components/button.tsx';
import { Alert, Card } from '../../components/card.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { Label, Textarea } from '../../components/form.tsx';
import { ReportIcon } from '../../components/icons.tsx';
import { Spinner } from '../../components/spinner.tsx';
import { toast } from '../../components/toaster.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { cn } from '../../lib/cn.ts';
import { formatAf, formatBytes, formatDateTime } from '../../lib/format.ts';
import { ResultsPage } from '../cases/index.ts';
import { AcmgBadge, ClinvarAssertionBadge, ReviewerBadge, ZygosityLabel } from '../variants/index.ts';
import { reportingApi, reportingKeys, saveFile, useReportItemMutations, useReportItems, useReports, type DownloadedFile } from './reporting.api.ts';

const th = 'px-2 sm:px-3 py-2.5 text-left text-[11px] font-semibold tracking-wide text-ink-500 uppercase whitespace-nowrap';
const td = 'px-2 sm:px-3 py-2.5 align-top text-sm';

function SectionTitle({ children, aside }: { children: string; aside?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 border-b border-ink-100 px-4 py-3 sm:px-5">
      <h2 className="text-sm font-semibold text-ink-900">{children}</h2>
      {aside}
    </div>
  );
}

function ClearListButton({ productId, count }: { productId: string; count: number }) {
  const [isOpen, setIsOpen] = useState(false);
  const { clear } = useReportItemMutations(productId);
  function handleClear() {
    clear.mutate(undefined, {
      onSuccess: (r) => {
        toast.success(r.message);
        setIsOpen(false);
      },
      onError: (error) => toast.error(errorMessage(error)),
    });
  }
  return (
    <ConfirmDialog
      open={isOpen}
      onOpenChange={setIsOpen}
      trigger={
        <Button variant="ghost" size="sm" disabled={count === 0} data-testid="clear-report-list">
          Clear list
        </Button>
      }
      title="Clear the reporting list?"
      description={`${count === 1 ? 'The selected variant' : `All ${count} selected variants`} will be removed from the list of this case, for everyone it is shared with.`}
      confirmLabel="Clear list"
      onConfirm={handleClear}
      isPending={clear.isPending}
      confirmTestId="confirm-clear-report-list"
    />
  );
}

function SelectedVariants({ productId, items, readOnly }: { productId: string; items: ReportItem[]; readOnly: boolean }) {
  const { remove } = useReportItemMutations(productId);
  function handleRemove(item: ReportItem) {
    remove.mutate(item.id, {
      onSuccess: (r) => toast.success(r.message),
      onError: (error) => toast.error(errorMessage(error)),
    });
  }
  return (
    <Card className="overflow-hidden">
      <SectionTitle aside={readOnly ? null : <ClearListButton productId={productId} count={items.length} />}>{`Selected variants (${items.length})`}</SectionTitle>
      {items.length === 0 ? (
        <p className="px-5 py-8 text-center text-sm text-ink-500" data-testid="report-list-empty">
          No variants selected yet. Open a gene or phenotype, then use “Add to report” on the variants you want in the report.
        </p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full" data-testid="report-items">
            <thead className="bg-ink-50/70">
              <tr>
                <th className={th}>Gene</th>
                <th className={th}>Variant</th>
                <th className={cn(th, 'hidden sm:table-cell')}>Zygosity</th>
                <th className={cn(th, 'hidden text-right md:table-cell')}>Population AF</th>
                <th className={cn(th, 'hidden md:table-cell')}>ClinVar</th>
                <th className={th}>ACMG</th>
                <th className={th}>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => {
                const v = item.variant;
                return (
                  <tr key={item.id} data-testid="report-item" className="border-t border-ink-100">
                    <td className={cn(td, 'font-semibold text-ink-900 italic')}>{v?.gene ?? item.locus.gene ?? 'Intergenic'}</td>
                    <td className={td}>
                      {v ? (
                        <>
                          <p className="font-mono text-xs break-all text-ink-800">{v.hgvsC ?? `${v.chrom}:${v.pos} ${v.ref}>${v.alt}`}</p>
                          {v.hgvsP ? <p className="font-mono text-[11px] text-ink-500">{v.hgvsP}</p> : null}
                          <p className="font-mono text-[11px] text-ink-400">
                            chr{v.chrom}:{v.pos.toLocaleString('en-GB')} {v.hgvsC?.includes(':') ? '' : (v.transcript ?? '')}
                          </p>
                        </>
                      ) : (
                        <p className="text-xs text-ink-500">
                          chr{item.locus.chrom}:{item.locus.pos} {item.locus.ref}&gt;{item.locus.alt} — not in the current analysis
                        </p>
                      )}
                    </td>
                    <td className={cn(td, 'hidden sm:table-cell')}>{v ? <ZygosityLabel value={v.zygosity} /> : null}</td>
                    <td className={cn(td, 'hidden text-right font-mono text-xs tabular-nums md:table-cell')}>{v ? formatAf(v.af) : ''}</td>
                    <td className={cn(td, 'hidden md:table-cell')}>
                      {v ? <ClinvarAssertionBadge assertion={v.clinvarAssertion} fallback={v.clinvar} /> : null}
                    </td>
                    <td className={td}>
                      {v ? (
                        <span className="inline-flex flex-col items-start gap-1">
                          <AcmgBadge value={v.acmg} points={v.acmgPoints} />
                          <ReviewerBadge review={v.reviewerClassification} compact />
                        </span>
                      ) : null}
                    </td>
                    <td className={cn(td, 'text-right')}>
                      {readOnly ? null : (
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => handleRemove(item)}
                        disabled={remove.isPending && remove.variables === item.id}
                        aria-label={`Remove ${v?.gene ?? item.locus.gene ?? 'variant'} from the reporting list`}
                        data-testid="remove-report-item"
                        className="px-2 sm:px-3"
                      >
                        Remove
                      </Button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

function EarlierReports({ productId }: { productId: string }) {
  const reports = useReports(productId);
  const download = useMutation({
    mutationFn: (reportId: string) => reportingApi.download(productId, reportId),
    onSuccess: (file) => {
      saveFile(file);
      toast.success(Messages.reportDownloaded);
    },
    onError: (error) => toast.error(errorMessage(error)),
  });
  return (
    <Card className="overflow-hidden">
      <SectionTitle>Earlier reports</SectionTitle>
      {reports.isPending ? (
        <div className="flex justify-center p-6 text-accent-600">
          <Spinner className="size-5" />
        </div>
      ) : reports.isError ? (
        <div className="p-4">
          <Alert tone="error">{errorMessage(reports.error)}</Alert>
        </div>
      ) : reports.data.items.length === 0 ? (
        <p className="px-5 py-6 text-sm text-ink-500">No report has been generated for this case yet.</p>
      ) : (
        <ul className="divide-y divide-ink-100" data-testid="report-history">
          {reports.data.items.map((r) => (
            <li key={r.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-5" data-testid="report-history-item">
              <div className="min-w-0">
                <p className="text-sm font-medium text-ink-900">
                  <time dateTime={r.createdAt}>{formatDateTime(r.createdAt)}</time>
                </p>
                <p className="text-xs text-ink-500">
                  {r.variantCount} variant{r.variantCount === 1 ? '' : 's'} · {r.pageCount} page{r.pageCount === 1 ? '' : 's'} · {formatBytes(r.sizeBytes)}
                  {r.createdBy ? ` · ${r.createdBy}` : ''}
                </p>
              </div>
              <Button variant="outline" size="sm" isLoading={download.isPending && download.variables === r.id} onClick={() => download.mutate(r.id)}>
                Download
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function Exports({ productId }: { productId: string }) {
  const exportFile = useMutation({
    mutationFn: (kind: 'phenopacket' | 'tsv'): Promise<DownloadedFile> =>
      kind === 'phenopacket' ? reportingApi.phenopacket(productId) : reportingApi.variantsTsv(productId),
    onSuccess: (file) => saveFile(file),
    onError: (error) => toast.error(errorMessage(error)),
  });
  return (
    <Card className="overflow-hidden">
      <SectionTitle>Exports</SectionTitle>
      <div className="space-y-3 px-4 py-4 sm:px-5">
        <p className="text-xs text-ink-500">
          The case as a GA4GH Phenopacket (v2) for Exomiser or LIRICAL, with the selected variants as its interpretation; or every variant of the analysis as a
          tab-separated table.
        </p>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" isLoading={exportFile.isPending && exportFile.variables === 'phenopacket'} onClick={() => exportFile.mutate('phenopacket')} data-testid="export-phenopacket">
            Phenopacket JSON
          </Button>
          <Button variant="outline" size="sm" isLoading={exportFile.isPending && exportFile.variables === 'tsv'} onClick={() => exportFile.mutate('tsv')} data-testid="export-tsv">
            Variants TSV
          </Button>
        </div>
      </div>
    </Card>
  );
}

function ReportComposer({ productId, product }: { productId: string; product: ProductDetails }) {
  const items = useReportItems(productId);
  const queryClient = useQueryClient();
  // null = not edited: the textarea follows the server's draft until the user types.
  const [edited, setEdited] = useState<string | null>(null);
  const draft = items.data?.draftInterpretation ?? '';
  const interpretation = edited ?? draft;
  const generate = useMutation({
    mutationFn: () => reportingApi.generate(productId, { interpretation }),
    onSuccess: (file) => {
      saveFile(file);
      toast.success(Messages.reportDownloaded);
      void queryClient.invalidateQueries({ queryKey: reportingKeys.reports(productId) });
    },
    onError: (error) => toast.error(errorMessage(error)),
  });

  if (items.isPending) {
    return (
      <div className="flex justify-center p-10 text-accent-600">
        <Spinner className="size-6" />
      </div>
    );
  }
  if (items.isError) return <Alert tone="error">{errorMessage(items.error)}</Alert>;
  const list = items.data.items;

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-5 xl:grid-cols-[minmax(0,1fr)_20rem]">
      <div className="min-w-0 space-y-5">
        <SelectedVariants productId={productId} items={list} readOnly={!product.isOwner} />
        <Card className="overflow-hidden">
          <SectionTitle
            aside={
              edited !== null && edited !== draft ? (
                <Button variant="link" size="sm" onClick={() => setEdited(null)}>
                  Reset to draft
                </Button>
              ) : null
            }
          >
            Interpretation
          </SectionTitle>
          <div className="space-y-3 px-4 py-4 sm:px-5">
            <Label htmlFor="interpretation" className="sr-only">
              Interpretation
            </Label>
            <Textarea
              id="interpretation"
              data-testid="interpretation"
              value={interpretation}
              maxLength={MaxInterpretationLength}
              readOnly={!product.isOwner}
              onChange={(e) => setEdited(e.target.value)}
              className="min-h-56 text-sm leading-relaxed"
            />
            <p className="text-xs text-ink-500">
              Drafted from the top selected variants; edit it before generating. It is printed in the report of case {product.caseId} as written.
            </p>
            <div className="flex flex-wrap items-center justify-end gap-3">
              {!product.isOwner ? (
                <span className="text-xs text-ink-500" data-testid="report-read-only">
                  Shared with you for reading: only the owner of the case can change the list and generate a report.
                </span>
              ) : (
                <>
                  {list.length === 0 ? <span className="text-xs text-ink-500">The report will state that no variant was selected.</span> : null}
                  <Button variant="secondary" isLoading={generate.isPending} onClick={() => generate.mutate()} data-testid="generate-report">
                    <ReportIcon className="size-4" aria-hidden="true" />
                    Generate report
                  </Button>
                </>
              )}
            </div>
          </div>
        </Card>
      </div>
      <div className="min-w-0 space-y-5">
        <EarlierReports productId={productId} />
        <Exports productId={productId} />
      </div>
    </div>
  );
}

/** /my-product/:productId/report — the reporting list, the interpretation and the PDF report. */
export function ReportingPage() {
  return (
    <ResultsPage title="Reporting" description="The variants selected for the report, its interpretation, and the reports generated so far.">
      {(product) => <ReportComposer productId={product.id} product={product} />}
    </ResultsPage>
  );
}
