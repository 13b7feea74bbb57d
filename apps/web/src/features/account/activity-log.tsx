import type { ActivityEvent, ActivityKind } from '@rarelens/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Button } from '../../components/button.tsx';
import { Card } from '../../components/card.tsx';
import { Spinner } from '../../components/spinner.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { accountApi } from './account.api.ts';

const LABELS: Record<ActivityKind, string> = {
  sign_in: 'Signed in',
  sign_in_failed: 'Failed sign-in',
  password_changed: 'Password changed',
  password_reset: 'Password reset by e-mail link',
  share_created: 'Shared a case',
  share_revoked: 'Unshared a case',
  share_opened: 'A share link was opened',
  report_downloaded: 'Report downloaded',
  case_deleted: 'Case deleted',
  data_exported: 'Data exported',
};

function describe(event: ActivityEvent): string {
  const d = event.detail;
  const parts = [d.caseId, d.email, d.fileName, d.reason].filter((v): v is string => typeof v === 'string' && v.length > 0);
  return parts.join(' · ');
}

/** The account's own activity (sign-ins, failed sign-ins, shares, downloads…), newest first. */
export function ActivityLog() {
  const query = useInfiniteQuery({
    queryKey: ['account', 'activity'],
    queryFn: ({ pageParam }) => accountApi.activity(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const events = query.data?.pages.flatMap((p) => p.events) ?? [];
  return (
    <Card className="mt-6 p-6 sm:p-8">
      <h2 className="text-base font-semibold text-ink-900">Account activity</h2>
      <p className="mt-1 text-sm text-ink-500">Sign-ins, failed sign-ins and changes to your account. If you do not recognise one, change your password.</p>
      {query.isPending ? (
        <Spinner className="mt-4" label="Loading activity" />
      ) : query.isError ? (
        <p className="mt-4 text-sm text-danger-600">The activity could not be loaded.</p>
      ) : events.length === 0 ? (
        <p className="mt-4 text-sm text-ink-500">No activity yet.</p>
      ) : (
        // On a phone the table scrolls within the card instead of widening the page; focusable
        // so that a keyboard can scroll it too (WCAG 2.1.1).
        <div className="mt-4 overflow-x-auto rounded-md" tabIndex={0} role="region" aria-label="Account activity, scrollable">
          <table className="w-full text-left text-sm" aria-label="Account activity">
            <thead className="text-xs text-ink-500">
              <tr>
                {['When', 'What', 'From'].map((header) => (
                  <th key={header} className="py-2 pr-4 font-medium">
                    {header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-ink-100">
              {events.map((e) => (
                <tr key={e.id} className={e.kind === 'sign_in_failed' ? 'text-danger-700' : 'text-ink-800'}>
                  <td className="py-2 pr-4 whitespace-nowrap">
                    <time dateTime={e.createdAt}>{formatDateTime(e.createdAt)}</time>
                  </td>
                  <td className="py-2 pr-4">
                    {LABELS[e.kind]}
                    {describe(e) ? <span className="text-ink-500"> — {describe(e)}</span> : null}
                  </td>
                  <td className="py-2 pr-4 text-ink-500">
                    <span className="block">{e.ip ?? '—'}</span>
                    {e.userAgent ? <span className="block max-w-40 truncate text-xs sm:max-w-xs" title={e.userAgent}>{e.userAgent}</span> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {query.hasNextPage ? (
        <div className="mt-4">
          <Button variant="outline" onClick={() => void query.fetchNextPage()} isLoading={query.isFetchingNextPage}>
            Show older activity
          </Button>
        </div>
      ) : null}
    </Card>
  );
}
