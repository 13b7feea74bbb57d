import * as TooltipPrimitive from '@radix-ui/react-tooltip';
import { Constants } from '@rarelens/contract';
import type { ReactElement, ReactNode } from 'react';

/** Wraps the app once: tooltips open after 700 ms, and skip the delay for 300 ms after one closes (§9). */
export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <TooltipPrimitive.Provider delayDuration={Constants.tooltipDelayMs} skipDelayDuration={Constants.tooltipSkipDelayMs}>
      {children}
    </TooltipPrimitive.Provider>
  );
}

/** A short hint shown on hover or focus of its single child. */
export function Tooltip({ content, children }: { content: ReactNode; children: ReactElement }) {
  return (
    <TooltipPrimitive.Root>
      <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
      <TooltipPrimitive.Portal>
        <TooltipPrimitive.Content
          sideOffset={6}
          className="z-50 max-w-xs rounded-md bg-ink-900 px-2.5 py-1.5 text-xs text-white shadow-lg animate-fade-in"
        >
          {content}
          <TooltipPrimitive.Arrow className="fill-ink-900" />
        </TooltipPrimitive.Content>
      </TooltipPrimitive.Portal>
    </TooltipPrimitive.Root>
  );
}
