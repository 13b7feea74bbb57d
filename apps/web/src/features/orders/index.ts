/** The orders feature's public surface: other features import only from here (eslint: no-restricted-imports). */
export { PlanRequiredNotice } from './plan-required-notice.tsx';
export { usePlans } from './orders.api.ts';
