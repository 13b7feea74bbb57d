import { z } from 'zod';
import { Email, PHONE_NUMBER } from './auth.ts';
import { Messages } from './messages.ts';

const Required = z.string({ error: Messages.mandatory }).trim().min(1, Messages.mandatory).max(200);

export const HealthResponse = z.object({
  status: z.literal('ok'),
  database: z.enum(['postgres', 'pglite']),
  version: z.string(),
});
export type HealthResponse = z.infer<typeof HealthResponse>;

/** Choices of the demo form's "yearly sample count" (spec §3: chosen from options). */
export const YearlySampleCounts = ['1-50', '51-200', '201-1000', '1001-5000', '5000+'] as const;
export type YearlySampleCount = (typeof YearlySampleCounts)[number];

/** Demo request (spec §3). */
export const DemoRequestBody = z.object({
  email: Email,
  name: Required,
  surname: Required,
  jobTitle: Required,
  companyName: Required,
  phone: Required.regex(PHONE_NUMBER, Messages.invalidPhone),
  country: Required,
  yearlySampleCount: z.enum(YearlySampleCounts, { error: Messages.mandatory }),
});
export type DemoRequestBody = z.infer<typeof DemoRequestBody>;

/** Contact form (spec §3). */
export const ContactBody = z.object({
  email: Email,
  name: Required,
  surname: Required,
  message: z.string({ error: Messages.mandatory }).trim().min(1, Messages.mandatory).max(5000),
});
export type ContactBody = z.infer<typeof ContactBody>;
