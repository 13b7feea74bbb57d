import { Messages } from '@rarelens/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/button.tsx';
import { Dialog, DialogContent } from '../../components/dialog.tsx';
import { refreshTokens } from '../../lib/api-client.ts';
import { onSessionExpired } from '../../lib/auth-events.ts';

/**
 * "Session Expired" (§4): opened when a call fails with "jwt expired" and the refresh did not
 * help. Refresh tries once more to renew the session; Log Out closes it and goes to /logout.
 */
export function SessionExpiredDialog() {
  const [open, setOpen] = useState(false);
  const [isRefreshing, setIsRefreshing] = useState(false);
  const [hasRefreshFailed, setHasRefreshFailed] = useState(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  useEffect(
    () =>
      onSessionExpired(() => {
        setHasRefreshFailed(false);
        setOpen(true);
      }),
    [],
  );

  const handleLogout = () => {
    setOpen(false);
    void navigate('/logout');
  };

  const handleRefresh = async () => {
    setIsRefreshing(true);
    const refreshed = await refreshTokens();
    setIsRefreshing(false);
    if (!refreshed) {
      setHasRefreshFailed(true);
      return;
    }
    setOpen(false);
    await queryClient.invalidateQueries();
  };

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? setOpen(true) : handleLogout())}>
      <DialogContent title={Messages.sessionExpiredTitle} description={Messages.sessionExpiredBody} isDismissible={false}>
        {hasRefreshFailed ? <p className="mt-3 text-sm text-danger-600">{Messages.sessionExpiredToast}</p> : null}
        <div className="mt-6 flex justify-end gap-2">
          <Button variant="outline" onClick={() => void handleRefresh()} isLoading={isRefreshing} disabled={hasRefreshFailed}>
            Refresh
          </Button>
          <Button onClick={handleLogout}>Log Out</Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
