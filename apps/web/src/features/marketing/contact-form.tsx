import { zodResolver } from '@hookform/resolvers/zod';
import { ContactBody, Messages } from '@rarelens/contract';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '../../components/button.tsx';
import { EmailField, FormField, Input, NameFields, Textarea } from '../../components/form.tsx';
import { toast, toastError } from '../../components/toaster.tsx';
import { applyServerIssues } from '../../lib/form-errors.ts';
import { marketingApi } from './marketing.api.ts';

type Input = z.input<typeof ContactBody>;
type Output = z.output<typeof ContactBody>;

/** The landing page's contact form; success shows "An email has been sent". */
export function ContactForm() {
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(ContactBody),
    defaultValues: { email: '', name: '', surname: '', message: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const handleSubmit = form.handleSubmit(async (values) => {
    try {
      await marketingApi.sendContactMessage(values);
      toast.success(Messages.emailSent);
      form.reset();
    } catch (error) {
      if (!applyServerIssues(error, form.setError, ['email', 'name', 'surname', 'message'])) toastError(error);
    }
  });

  return (
    <form onSubmit={(e) => void handleSubmit(e)} noValidate className="grid gap-5 sm:grid-cols-2" aria-label="Contact form">
      <NameFields name={form.register('name')} surname={form.register('surname')} errors={errors} />
      <EmailField registration={form.register('email')} error={errors.email?.message} className="sm:col-span-2" />
      <FormField label="Message" error={errors.message?.message} className="sm:col-span-2">
        <Textarea rows={5} placeholder="How can we help?" {...form.register('message')} />
      </FormField>
      <div className="sm:col-span-2">
        <Button type="submit" size="lg" isLoading={isSubmitting} className="w-full sm:w-auto">
          Send message
        </Button>
      </div>
    </form>
  );
}
