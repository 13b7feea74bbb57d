/**
 * The reports module's public surface for other modules: the report model parts they fill in
 * (e.g. the raw-data section). Other modules import reports only from here (or its service).
 */
export type { ReportRawData } from './report.model.ts';
