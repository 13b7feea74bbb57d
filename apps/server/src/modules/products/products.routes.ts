/**
 * /api/products: cases (upload, list, details, results, phenotype terms, sharing, files, IGV).
 * Every route requires a session; a case the caller cannot see answers 404.
 */
import multipart from '@fastify/multipart';
import {
  CreateProductResponse,
  ErrorCode,
  GeneDetails,
  GeneRow,
  IgvRegionQuery,
  PageQuery,
  PhenotypeDetails,
  PhenotypeRow,
  ProductDetails,
  ProductListResponse,
  ShareBody,
  ShareListResponse,
  UpdatePhenotypeTermsBody,
  UpdatePhenotypeTermsResponse,
  VariantDetails,
  VariantListQuery,
  VariantListResponse,
  pageOf,
  ErrorBody,
} from '@rarelens/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { contentDisposition } from '../../http/content-disposition.ts';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { IgvTracks } from './igv.tracks.ts';
import { UploadValidationError, type ProductsService, type UploadPart } from './products.service.ts';

const IdParams = z.object({ id: z.string() });
const PhenotypeParams = IdParams.extend({ phenotypeId: z.string().min(1).max(100) });
const GeneParams = IdParams.extend({ geneId: z.string().min(1).max(50) });
const VariantParams = IdParams.extend({ variantId: z.coerce.number().int().min(1) });
const FileParams = IdParams.extend({ fileId: z.string() });
const ShareParams = IdParams.extend({ email: z.string() });

export interface ProductsRoutesOptions {
  productsService: ProductsService;
  igv: IgvTracks;
  uploadMaxBytes: number;
}

export const productsRoutes: FastifyPluginCallbackZod<ProductsRoutesOptions> = (app, opts, done) => {
  const { productsService: service, igv } = opts;
  app.addHook('onRequest', app.authenticate);
  void app.register(multipart, {
    throwFileSizeLimit: true,
    limits: {
      fileSize: opts.uploadMaxBytes,
      // One genome file + 5 additional files; one more is allowed through so the service can
      // answer with the spec's message rather than a silent truncation.
      files: 7,
      fields: 50,
      fieldSize: 1024 * 1024,
      parts: 100,
    },
  });

  app.post('/', { schema: { response: { 202: CreateProductResponse, 400: ErrorBody } } }, async (request, reply) => {
    if (!request.isMultipart()) {
      throw new AppError(415, ErrorCode.unsupportedMediaType, 'Send the case as multipart/form-data');
    }
    const user = currentUser(request);
    async function* parts(): AsyncGenerator<UploadPart> {
      for await (const part of request.parts()) {
        if (part.type === 'file') yield { type: 'file', fieldname: part.fieldname, filename: part.filename, file: part.file };
        else yield { type: 'field', fieldname: part.fieldname, value: part.value };
      }
    }
    try {
      const created = await service.create(user, parts());
      return reply.status(202).send(created);
    } catch (e) {
      if (e instanceof UploadValidationError) {
        const body: ErrorBody = { code: ErrorCode.validationFailed, message: e.message, issues: e.issues };
        return reply.status(400).send(body);
      }
      throw e;
    }
  });

  app.get('/', { schema: { response: { 200: ProductListResponse } } }, async (request) => ({
    items: await service.list(currentUser(request)),
  }));

  app.get('/:id', { schema: { params: IdParams, response: { 200: ProductDetails } } }, (request) =>
    service.get(currentUser(request), request.params.id),
  );

  app.put(
    '/:id/phenotype-terms',
    {
      schema: {
        params: IdParams,
        body: UpdatePhenotypeTermsBody,
        response: { 200: UpdatePhenotypeTermsResponse, 400: ErrorBody },
      },
    },
    async (request, reply) => {
      try {
        return await service.updateTerms(currentUser(request), request.params.id, request.body);
      } catch (e) {
        if (e instanceof UploadValidationError) {
          const body: ErrorBody = { code: ErrorCode.validationFailed, message: e.message, issues: e.issues };
          return reply.status(400).send(body);
        }
        throw e;
      }
    },
  );

  app.get(
    '/:id/phenotypes',
    { schema: { params: IdParams, querystring: PageQuery, response: { 200: pageOf(PhenotypeRow) } } },
    (request) => service.phenotypes(currentUser(request), request.params.id, request.query),
  );
  app.get(
    '/:id/phenotypes/:phenotypeId',
    { schema: { params: PhenotypeParams, response: { 200: PhenotypeDetails } } },
    (request) => service.phenotype(currentUser(request), request.params.id, request.params.phenotypeId),
  );

  app.get(
    '/:id/genes',
    { schema: { params: IdParams, querystring: PageQuery, response: { 200: pageOf(GeneRow) } } },
    (request) => service.genes(currentUser(request), request.params.id, request.query),
  );
  app.get('/:id/genes/:geneId', { schema: { params: GeneParams, response: { 200: GeneDetails } } }, (request) =>
    service.gene(currentUser(request), request.params.id, request.params.geneId),
  );

  app.get(
    '/:id/variants',
    { schema: { params: IdParams, querystring: VariantListQuery, response: { 200: VariantListResponse } } },
    (request) => service.variants(currentUser(request), request.params.id, request.query),
  );
  app.get(
    '/:id/variants/:variantId',
    { schema: { params: VariantParams, response: { 200: VariantDetails } } },
    (request) => service.variant(currentUser(request), request.params.id, request.params.variantId),
  );

  app.get('/:id/shares', { schema: { params: IdParams, response: { 200: ShareListResponse } } }, (request) =>
    service.shares(currentUser(request), request.params.id),
  );
  app.post(
    '/:id/shares',
    { schema: { params: IdParams, body: ShareBody, response: { 200: ShareListResponse } } },
    (request) => service.share(currentUser(request), request.params.id, request.body.email),
  );
  app.delete(
    '/:id/shares/:email',
    { schema: { params: ShareParams, response: { 200: ShareListResponse } } },
    (request) => service.unshare(currentUser(request), request.params.id, request.params.email.trim().toLowerCase()),
  );

  app.get('/:id/files/:fileId', { schema: { params: FileParams } }, async (request, reply) => {
    const { file, stream } = await service.file(currentUser(request), request.params.id, request.params.fileId);
    return reply
      .header('content-type', file.mediaType)
      .header('content-length', String(file.sizeBytes))
      .header('content-disposition', contentDisposition(file.originalName))
      .header('x-content-type-options', 'nosniff')
      .send(stream);
  });

  // igv.js tracks, all served from the case and the local knowledge base (nothing external).
  app.get(
    '/:id/igv/variants.vcf',
    { schema: { params: IdParams, querystring: IgvRegionQuery } },
    async (request, reply) => {
      const { runId, product } = await service.readableRun(currentUser(request), request.params.id);
      const text = await igv.caseVariantsVcf(runId, product.caseId, request.query.region);
      return reply.header('content-type', 'text/plain; charset=utf-8').send(text);
    },
  );
  app.get('/:id/igv/genes.bed', { schema: { params: IdParams, querystring: IgvRegionQuery } }, async (request, reply) => {
    await service.readableRun(currentUser(request), request.params.id);
    const text = await igv.genesBed(request.query.region);
    return reply.header('content-type', 'text/plain; charset=utf-8').send(text);
  });
  app.get('/:id/igv/clinvar.bed', { schema: { params: IdParams, querystring: IgvRegionQuery } }, async (request, reply) => {
    await service.readableRun(currentUser(request), request.params.id);
    const text = await igv.clinvarBed(request.query.region);
    return reply.header('content-type', 'text/plain; charset=utf-8').send(text);
  });
  done();
};
