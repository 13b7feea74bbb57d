/** The public page of a disease id (OMIM, Orphanet, MONDO, DECIPHER), or null when unknown. */
export function diseaseUrl(id: string): string | null {
  const [prefix, local] = id.split(':');
  if (!prefix || !local) return null;
  switch (prefix.toUpperCase()) {
    case 'OMIM':
      return `https://omim.org/entry/${encodeURIComponent(local)}`;
    case 'ORPHA':
    case 'ORPHANET':
      return `https://www.orpha.net/en/disease/detail/${encodeURIComponent(local)}`;
    case 'MONDO':
      return `https://monarchinitiative.org/${encodeURIComponent(`MONDO:${local}`)}`;
    case 'DECIPHER':
      return `https://www.deciphergenomics.org/syndrome/${encodeURIComponent(local)}`;
    default:
      return null;
  }
}

/** A disease id as a plain external link (opens in a new tab). */
export function DiseaseIdLink({ id, className }: { id: string; className?: string }) {
  const url = diseaseUrl(id);
  if (!url) return <span className={className}>{id}</span>;
  return (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      className={className ?? 'font-mono text-xs text-accent-700 hover:underline'}
      onClick={(e) => e.stopPropagation()}
      title={`Open ${id} in a new tab`}
    >
      {id}
    </a>
  );
}
