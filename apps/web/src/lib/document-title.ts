import { useEffect } from 'react';

export const SiteTitle = 'Effortless variant interpretation with AI';

/** Sets the document title while the calling page is mounted ("Page · RareLens"). */
export function useDocumentTitle(title: string | undefined, { isExact = false } = {}): void {
  useEffect(() => {
    document.title = !title ? SiteTitle : isExact ? title : `${title} · RareLens`;
  }, [title, isExact]);
}
