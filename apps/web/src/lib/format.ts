/** Display helpers for case and result values. */

const dateFormat = new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
});
const dateTimeFormat = new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** "21 Nov 2026". */
export function formatDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateFormat.format(d);
}

/** "21 Nov 2026, 08:15". */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateTimeFormat.format(d);
}

/** A probability as a percentage: one formatter for the screens and the PDF report. */
export { formatProbability } from '@rarelens/contract';

/** A population allele frequency: scientific notation below 0.001, "not available" when unknown. */
export function formatAf(af: number | null): string {
  if (af === null) return 'not available';
  if (af === 0) return '0';
  if (af < 0.001) return af.toExponential(2);
  return af.toFixed(4).replace(/0+$/, '').replace(/\.$/, '');
}

/** A file size in B/KB/MB/GB (base 1024). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit] ?? 'TB'}`;
}

/** "missense_variant" -> "Missense variant". */
export function formatSoTerm(term: string): string {
  const text = term.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "Likely_pathogenic" -> "Likely pathogenic" (ClinVar writes underscores). */
export function formatClinvar(value: string): string {
  return value.replace(/_/g, ' ').replace(/\//g, ' / ');
}
