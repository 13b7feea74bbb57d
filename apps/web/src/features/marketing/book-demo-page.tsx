import { zodResolver } from '@hookform/resolvers/zod';
import { DemoRequestBody, Messages, YearlySampleCounts } from '@rarelens/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { Button } from '../../components/button.tsx';
import { Card } from '../../components/card.tsx';
import { FormField, Input, NativeSelect, NameFields } from '../../components/form.tsx';
import { CheckIcon, ClockIcon, DnaIcon, SparklesIcon } from '../../components/icons.tsx';
import { toast, toastError } from '../../components/toaster.tsx';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { applyServerIssues } from '../../lib/form-errors.ts';
import { marketingApi } from './marketing.api.ts';

type Input = z.input<typeof DemoRequestBody>;
type Output = z.output<typeof DemoRequestBody>;

const fields = ['email', 'name', 'surname', 'jobTitle', 'companyName', 'phone', 'country', 'yearlySampleCount'] as const;

const agenda = [
  { icon: DnaIcon, text: 'A walk through a real interpretation, from VCF to report' },
  { icon: SparklesIcon, text: 'PhenomeAI turning clinical notes into HPO phenotypes' },
  { icon: ClockIcon, text: '30 minutes, with time for your own questions' },
];

/** /book-demo: the demo request form; success shows "Demo request sent". */
export function BookDemoPage() {
  useDocumentTitle('Request a demo');
  const [isSent, setIsSent] = useState(false);
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(DemoRequestBody),
    defaultValues: { email: '', name: '', surname: '', jobTitle: '', companyName: '', phone: '', country: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const handleSubmit = form.handleSubmit(async (values) => {
    try {
      await marketingApi.requestDemo(values);
      toast.success(Messages.demoRequestSent);
      setIsSent(true);
    } catch (error) {
      if (!applyServerIssues(error, form.setError, fields)) toastError(error);
    }
  });

  return (
    <div className="bg-gradient-to-b from-ink-50 to-white">
      <div className="mx-auto grid max-w-7xl gap-12 px-4 py-16 sm:px-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] lg:px-8 lg:py-24">
        <div>
          <p className="text-sm font-semibold tracking-wide text-accent-600 uppercase">Request a demo</p>
          <h1 className="mt-3 text-4xl font-semibold tracking-tight text-ink-900">See RareLens on a case like yours</h1>
          <p className="mt-4 text-lg leading-8 text-ink-600">
            Tell us about your lab or practice and we will set up a session with a genomics specialist.
          </p>
          <ul className="mt-10 space-y-5">
            {agenda.map(({ icon: Icon, text }) => (
              <li key={text} className="flex items-start gap-4">
                <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-white text-xl text-accent-600 shadow-card">
                  <Icon />
                </span>
                <span className="pt-2 text-ink-700">{text}</span>
              </li>
            ))}
          </ul>
        </div>
        <Card className="p-6 sm:p-8">
          {isSent ? (
            <div className="flex flex-col items-center py-12 text-center" role="status">
              <span className="flex size-14 items-center justify-center rounded-full bg-accent-50 text-3xl text-accent-600">
                <CheckIcon />
              </span>
              <h2 className="mt-5 text-xl font-semibold text-ink-900">{Messages.demoRequestSent}</h2>
              <p className="mt-2 max-w-sm text-sm text-ink-500">Thank you. We will contact you shortly to find a time that suits you.</p>
              <Button asChild variant="outline" className="mt-6">
                <Link to="/">Back to the home page</Link>
              </Button>
            </div>
          ) : (
            <form onSubmit={(e) => void handleSubmit(e)} noValidate className="grid gap-5 sm:grid-cols-2" aria-label="Demo request">
              <NameFields name={form.register('name')} surname={form.register('surname')} errors={errors} />
              <FormField label="Work email" error={errors.email?.message} className="sm:col-span-2">
                <Input type="email" autoComplete="email" {...form.register('email')} />
              </FormField>
              <FormField label="Job title" error={errors.jobTitle?.message}>
                <Input autoComplete="organization-title" {...form.register('jobTitle')} />
              </FormField>
              <FormField label="Company name" error={errors.companyName?.message}>
                <Input autoComplete="organization" {...form.register('companyName')} />
              </FormField>
              <FormField label="Phone" error={errors.phone?.message}>
                <Input type="tel" autoComplete="tel" {...form.register('phone')} />
              </FormField>
              <FormField label="Country" error={errors.country?.message}>
                <Input autoComplete="country-name" {...form.register('country')} />
              </FormField>
              <FormField label="Yearly sample count" error={errors.yearlySampleCount?.message} className="sm:col-span-2">
                <NativeSelect defaultValue="" {...form.register('yearlySampleCount')}>
                  <option value="" disabled>
                    Choose a range
                  </option>
                  {YearlySampleCounts.map((count) => (
                    <option key={count} value={count}>
                      {count} samples
                    </option>
                  ))}
                </NativeSelect>
              </FormField>
              <div className="sm:col-span-2">
                <Button type="submit" size="lg" isLoading={isSubmitting} className="w-full">
                  Request a demo
                </Button>
                <p className="mt-3 text-center text-xs text-ink-400">
                  We use your details only to arrange the demo. See our{' '}
                  <Link to="/privacy" className="underline hover:text-ink-600">
                    Privacy policy
                  </Link>
                  .
                </p>
              </div>
            </form>
          )}
        </Card>
      </div>
    </div>
  );
}
