import type { HTMLAttributes, ReactNode } from 'react';
import { cn } from '../lib/cn.ts';

export function Card({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('rounded-2xl border border-ink-100 bg-white shadow-card', className)} {...props} />;
}

/** A page's heading block: title, optional description and actions on the right. */
export function PageHeader({ title, description, actions }: { title: ReactNode; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-ink-900">{title}</h1>
        {description ? <p className="mt-1 text-sm text-ink-500">{description}</p> : null}
      </div>
      {actions ? <div className="flex gap-2">{actions}</div> : null}
    </div>
  );
}

/** An inline message box. */
export function Alert({ tone = 'info', children, className }: { tone?: 'info' | 'error' | 'success'; children: ReactNode; className?: string }) {
  const tones = {
    info: 'border-ink-100 bg-ink-50 text-ink-700',
    error: 'border-danger-600/20 bg-danger-50 text-danger-700',
    success: 'border-accent-200 bg-accent-50 text-accent-700',
  } as const;
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={cn('rounded-lg border px-4 py-3 text-sm', tones[tone], className)}>
      {children}
    </div>
  );
}

/** A friendly empty state for lists and not-yet-available areas. */
export function EmptyState({ icon, title, children, action }: { icon?: ReactNode; title: ReactNode; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="flex flex-col items-center justify-center rounded-2xl border border-dashed border-ink-200 bg-ink-50/50 px-6 py-16 text-center">
      {icon ? <div className="mb-4 flex size-12 items-center justify-center rounded-xl bg-white text-2xl text-accent-600 shadow-card">{icon}</div> : null}
      <h2 className="text-base font-semibold text-ink-900">{title}</h2>
      {children ? <div className="mt-1.5 max-w-md text-sm text-ink-500">{children}</div> : null}
      {action ? <div className="mt-5">{action}</div> : null}
    </div>
  );
}
