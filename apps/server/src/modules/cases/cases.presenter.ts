/** Whitelists of what the cases API returns (CONVENTIONS §2): case summaries and details. */
import {
  Messages,
  type AnalysisRunInfo,
  type ProductDetails,
  type ProductFile,
  type ProductSummary,
  type TermRef,
} from '@rarelens/contract';
import type { AnalysisRunRow, ProductFileRow, ProductRow } from '../../db/schema/products.ts';

export function presentCaseSummary(
  p: ProductRow,
  access: { isOwner: boolean; ownerEmail: string; ownerName: string; shareCount: number },
): ProductSummary {
  return {
    id: p.id,
    caseId: p.caseId,
    name: p.caseId,
    status: p.status,
    isShared: access.isOwner ? access.shareCount > 0 : true,
    isOwner: access.isOwner,
    sharedBy: access.isOwner ? null : access.ownerEmail,
    sharedByName: access.isOwner ? null : access.ownerName || null,
    createdAt: p.createdAt.toISOString(),
    progress: p.status === 'Completed' ? 100 : p.progress,
    progressStage: p.status === 'Processing' ? p.progressStage : null,
    rawDataAnalysis: p.genomeFormat === 'fastq',
    error: p.status === 'Error' ? { message: Messages.productError, reason: p.errorReason ?? 'Unknown error' } : null,
    hpoTermCount: p.hpoTerms.length,
    hpoTermsSource: p.hpoTermsSource,
  };
}

export function presentFile(f: ProductFileRow): ProductFile {
  return {
    id: f.id,
    role: f.role,
    name: f.originalName,
    sizeBytes: f.sizeBytes,
    format: f.format,
    compression: f.compression,
    mediaType: f.mediaType,
    sha256: f.sha256,
  };
}

export function presentRun(r: AnalysisRunRow): AnalysisRunInfo {
  return {
    id: r.id,
    softwareVersion: r.softwareVersion,
    assembly: r.assembly,
    inputAssembly: r.inputAssembly,
    kbVersions: r.kbVersions,
    counts: r.counts,
    startedAt: r.startedAt.toISOString(),
    completedAt: r.completedAt?.toISOString() ?? null,
    rankedAt: r.rankedAt?.toISOString() ?? null,
  };
}

export function presentCaseDetails(
  p: ProductRow,
  access: { isOwner: boolean; ownerEmail: string; ownerName: string; shares: string[] },
  extra: { files: ProductFileRow[]; run: AnalysisRunRow | null; label: (id: string) => string; isOnset?: (id: string) => boolean },
): ProductDetails {
  const terms = (ids: string[]): TermRef[] => ids.map((id) => ({ id, label: extra.label(id) }));
  return {
    ...presentCaseSummary(p, { ...access, shareCount: access.shares.length }),
    gender: p.gender,
    symptoms: p.symptoms,
    hpoTerms: terms(p.hpoTerms).map((t) => (extra.isOnset?.(t.id) ? { ...t, onset: true as const } : t)),
    excludedTerms: terms(p.excludedTerms),
    assemblyRequested: p.assemblyRequested,
    assembly: p.assembly,
    genomeFormat: p.genomeFormat,
    imageDescription: p.imageDescription,
    files: extra.files.map(presentFile),
    run: extra.run ? presentRun(extra.run) : null,
    sharedWith: access.isOwner ? access.shares : [],
  };
}
