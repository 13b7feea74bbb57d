import { Navigate } from 'react-router';
import { EmptyState, PageHeader } from '../../components/card.tsx';
import { ReportIcon, SparklesIcon } from '../../components/icons.tsx';
import { useDocumentTitle } from '../../lib/document-title.ts';
import type { ReactNode } from 'react';

/**
 * The product index redirect, and placeholders for the Diagnose module and Reporting until
 * their features point their routes in app/routes.tsx to their own pages.
 */
function Placeholder({
  title,
  icon,
  children,
}: {
  title: string;
  icon: ReactNode;
  children: ReactNode;
}) {
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
