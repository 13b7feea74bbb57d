/**
 * /api/products/:id/report-items, /reports, /phenopacket and /variants.tsv. Every route
 * requires a session; a case the caller cannot read answers 404.
 */
import {
  AddReportItemBody,
  AddReportItemResponse,
  CreateReportBody,
  ErrorBody,
  Phenopacket,
  PhenopacketFamily,
  ReportHeaders,
  ReportItemListResponse,
  ReportListMessage,
  ReportListResponse,
  VariantListQuery,
} from '@rarelens/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { contentDisposition } from '../../http/content-disposition.ts';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { currentUser } from '../../plugins/auth.ts';
import type { ReportsService } from './reports.service.ts';

const IdParams = z.object({ id: z.uuid({ error: 'Must be a case id' }) });
const ItemParams = IdParams.extend({ itemId: z.uuid({ error: 'Must be a reporting-list item id' }) });
const ReportParams = IdParams.extend({ reportId: z.uuid({ error: 'Must be a report id' }) });

export interface ReportsRoutesOptions {
  reportsService: ReportsService;
}

function attachment(reply: FastifyReply, fileName: string, contentType: string): FastifyReply {
  return reply
    .header('content-type', contentType)
    .header('content-disposition', contentDisposition(fileName))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store');
}

export const reportsRoutes: FastifyPluginCallbackZod<ReportsRoutesOptions> = (app, opts, done) => {
  const service = opts.reportsService;
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/:id/report-items',
    { schema: { params: IdParams, response: { 200: ReportItemListResponse, 400: ErrorBody } } },
    (request) => service.listItems(currentUser(request), request.params.id),
  );
  app.post(
    '/:id/report-items',
    { schema: { params: IdParams, body: AddReportItemBody, response: { 201: AddReportItemResponse, 400: ErrorBody, 409: ErrorBody } } },
    async (request, reply) => reply.status(201).send(await service.addItem(currentUser(request), request.params.id, request.body.variantId)),
  );
  app.delete(
    '/:id/report-items',
    { schema: { params: IdParams, response: { 200: ReportListMessage, 400: ErrorBody } } },
    (request) => service.clearItems(currentUser(request), request.params.id),
  );
  app.delete(
    '/:id/report-items/:itemId',
    { schema: { params: ItemParams, response: { 200: ReportListMessage, 400: ErrorBody } } },
    (request) => service.removeItem(currentUser(request), request.params.id, request.params.itemId),
  );

  app.post(
    '/:id/reports',
    { schema: { params: IdParams, body: CreateReportBody.optional().default({}) } },
    async (request, reply) => {
      const { report, pdf } = await service.createReport(currentUser(request), request.params.id, request.body);
      return attachment(reply.status(201), report.fileName, 'application/pdf')
        .header('content-length', String(pdf.length))
        .header(ReportHeaders.reportId, report.id)
        .send(pdf);
    },
  );
  app.get(
    '/:id/reports',
    { schema: { params: IdParams, response: { 200: ReportListResponse, 400: ErrorBody } } },
    (request) => service.listReports(currentUser(request), request.params.id),
  );
  app.get('/:id/reports/:reportId', { schema: { params: ReportParams, response: { 400: ErrorBody } } }, async (request, reply) => {
    const { report, stream } = await service.reportFile(currentUser(request), request.params.id, request.params.reportId);
    return attachment(reply, report.fileName, 'application/pdf')
      .header('content-length', String(report.sizeBytes))
      .header(ReportHeaders.reportId, report.id)
      .send(stream);
  });

  app.get(
    '/:id/phenopacket',
    { schema: { params: IdParams, response: { 200: z.union([Phenopacket, PhenopacketFamily]), 400: ErrorBody } } },
    async (request, reply) => {
      const { name: base, packet } = await service.phenopacket(currentUser(request), request.params.id);
      const name = `${base.replace(/[^A-Za-z0-9._-]+/g, '_')}.phenopacket.json`;
      return attachment(reply, name, 'application/json; charset=utf-8').send(packet);
    },
  );
  app.get(
    '/:id/variants.tsv',
    { schema: { params: IdParams, querystring: VariantListQuery, response: { 400: ErrorBody } } },
    async (request, reply) => {
      const { caseId, chunks } = await service.variantsTsv(currentUser(request), request.params.id, request.query);
      const name = `${caseId.replace(/[^A-Za-z0-9._-]+/g, '_')}.variants.tsv`;
      return attachment(reply, name, 'text/tab-separated-values; charset=utf-8').send(Readable.from(chunks));
    },
  );
  done();
};
