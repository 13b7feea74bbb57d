import { Navigate } from 'react-router';
import { EmptyState, PageHeader } from '../../components/card.tsx';
import { GeneIcon, ReportIcon, SparklesIcon, StethoscopeIcon } from '../../components/icons.tsx';
import { useDocumentTitle } from '../../lib/document-title.ts';
import type { ReactNode } from 'react';

/**
 * Placeholders for the product pages (phenotypes, genes, diagnose, reporting and the detail
 * pages). Each feature replaces its export here by pointing its route in app/routes.tsx to
 * its own page.
 */
function Placeholder({ title, icon, children }: { title: string; icon: ReactNode; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <>
      <PageHeader title={title} />
      <EmptyState icon={icon} title={`${title} will appear here`}>
        {children}
      </EmptyState>
    </>
  );
}

/** /my-product/:id redirects to /home (§2). */
export function ProductIndexRedirect() {
  return <Navigate to="/home" replace />;
}

export function PhenotypesPlaceholderPage() {
  return (
    <Placeholder title="Phenotypes" icon={<StethoscopeIcon />}>
      Candidate phenotypes ranked for this case, once its analysis has completed.
    </Placeholder>
  );
}

export function PhenotypeDetailsPlaceholderPage() {
  return (
    <Placeholder title="Phenotype details" icon={<StethoscopeIcon />}>
      Inheritance, probability, significance, symptoms, genes and variants of this phenotype.
    </Placeholder>
  );
}

export function GenesPlaceholderPage() {
  return (
    <Placeholder title="Genes" icon={<GeneIcon />}>
      Ranked genes for this case, once its analysis has completed.
    </Placeholder>
  );
}

export function GeneDetailsPlaceholderPage() {
  return (
    <Placeholder title="Gene details" icon={<GeneIcon />}>
      Gene description, synonyms, inheritance, age of onset and significance.
    </Placeholder>
  );
}

export function DiagnosePlaceholderPage() {
  return (
    <Placeholder title="Diagnose module" icon={<SparklesIcon />}>
      PhenomeAI maps the patient’s symptoms to phenotypes.
    </Placeholder>
  );
}

export function ReportingPlaceholderPage() {
  return (
    <Placeholder title="Reporting" icon={<ReportIcon />}>
      Variants you add to the reporting list, and the report generated from them.
    </Placeholder>
  );
}
