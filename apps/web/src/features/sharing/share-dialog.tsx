import { Messages, ShareBody } from '@rarelens/contract';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button.tsx';
import { Dialog, DialogClose, DialogContent } from '../../components/dialog.tsx';
import { FormField, Input } from '../../components/form.tsx';
import { ShareIcon } from '../../components/icons.tsx';
import { toast, toastError } from '../../components/toaster.tsx';
import { useShareMutations } from './sharing.api.ts';

/**
 * "Share" on a case the user owns (on its phenotypes and in its row of /home): e-mails a colleague a read-only link to the phenotypes
 * (/shared/{token}); a colleague with an account also finds the case under "Shared with me".
 */
export function ShareCaseButton({ productId, caseName }: { productId: string; caseName: string }) {
  const [isOpen, setIsOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { share } = useShareMutations();

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = ShareBody.safeParse({ email });
    if (!parsed.success) {
      setError(email.trim() === '' ? Messages.mandatory : Messages.invalidEmail);
      return;
    }
    setError(null);
    share.mutate(
      { productId, email: parsed.data.email },
      {
        onSuccess: () => {
          toast.success(Messages.emailSent, { description: `Shared with ${parsed.data.email}: the e-mail holds a link to read the ranked phenotypes.` });
          setEmail('');
          setIsOpen(false);
        },
        onError: toastError,
      },
    );
  }

  return (
    <Dialog open={isOpen} onOpenChange={setIsOpen}>
      <Button variant="outline" size="sm" onClick={() => setIsOpen(true)} data-testid="share-case" aria-label={`Share ${caseName}`}>
        <ShareIcon className="size-4" /> Share
      </Button>
      <DialogContent
        title={`Share ${caseName}`}
        description="The colleague receives an e-mail with a link to read the ranked phenotypes of this case, without an account. You can unshare at any time in Share settings."
      >
        <form className="mt-5 flex flex-col gap-4" onSubmit={handleSubmit} noValidate>
          <FormField label="E-mail address" error={error ?? undefined}>
            <Input
              type="email"
              name="email"
              autoComplete="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </FormField>
          <div className="flex justify-end gap-2">
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" isLoading={share.isPending} data-testid="confirm-share">
              Share
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
