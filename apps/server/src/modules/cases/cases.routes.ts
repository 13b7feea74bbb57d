/**
 * /api/products: cases (upload, list, details, phenotype terms, files, delete, retry of a
 * failed analysis). The public path keeps
 * the spec's word "products"; in code a product is a case (docs/ARCHITECTURE.md). Every route
 * requires a session; a case the caller cannot see answers 404.
 */
import multipart from '@fastify/multipart';
import {
  CreateProductResponse,
  ErrorBody,
  ErrorCode,
  MessageResponse,
  ProductDetails,
  ProductListResponse,
  RetryProductResponse,
  UpdatePhenotypeTermsBody,
  UpdatePhenotypeTermsResponse,
} from '@rarelens/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { contentDisposition } from '../../http/content-disposition.ts';
import { currentUser } from '../../plugins/auth.ts';
import { originOf } from '../activity/index.ts';
import type { CasesService, UploadPart } from './cases.service.ts';
import { guardUploadPace, pacedParts, type UploadPaceOptions } from './upload-pace.ts';

const IdParams = z.object({ id: z.string() });
const FileParams = IdParams.extend({ fileId: z.string() });

export interface CasesRoutesOptions {
  casesService: CasesService;
  uploadMaxBytes: number;
  /** Slow uploads stopped with 408 (upload-pace.ts). */
  uploadPace: UploadPaceOptions;
}

export const casesRoutes: FastifyPluginCallbackZod<CasesRoutesOptions> = (app, opts, done) => {
  const { casesService: service } = opts;
  app.addHook('onRequest', app.authenticate);
  void app.register(multipart, {
    throwFileSizeLimit: true,
    limits: {
      fileSize: opts.uploadMaxBytes,
      // One genome file (+ its mate FASTQ) + 5 additional files + a PED file; one more is allowed
      // through so the service can answer with the spec's message rather than a silent truncation.
      files: 8,
      fields: 50,
      fieldSize: 1024 * 1024,
      parts: 100,
    },
  });

  app.post('/', { schema: { response: { 202: CreateProductResponse, 400: ErrorBody, 402: ErrorBody } } }, async (request, reply) => {
    if (!request.isMultipart()) {
      throw new AppError(415, ErrorCode.unsupportedMediaType, 'Send the case as multipart/form-data');
    }
    const user = currentUser(request);
    const guard = guardUploadPace(request.raw, opts.uploadPace);
    async function* parts(): AsyncGenerator<UploadPart> {
      for await (const part of pacedParts(request.parts(), guard)) {
        if (part.type === 'file') {
          guard.track(part.file);
          yield { type: 'file', fieldname: part.fieldname, filename: part.filename, file: part.file };
        } else yield { type: 'field', fieldname: part.fieldname, value: part.value };
      }
    }
    let created;
    try {
      // A stall destroys the file stream being stored and ends the parts loop with
      // UploadStalledError, so the service cleans up as for any aborted upload.
      created = await service.create(user, parts());
    } catch (error) {
      // A stalled client may still hold the rest of its body: answer, then close the connection.
      if (error instanceof Error && error.name === 'UploadStalledError') reply.header('connection', 'close');
      throw error;
    } finally {
      guard.stop();
    }
    return reply.status(202).send(created);
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
    (request) => service.updateTerms(currentUser(request), request.params.id, request.body),
  );

  app.delete('/:id', { schema: { params: IdParams, response: { 200: MessageResponse } } }, (request) =>
    service.remove(currentUser(request), request.params.id, originOf(request)),
  );

  app.post('/:id/retry', { schema: { params: IdParams, response: { 202: RetryProductResponse } } }, async (request, reply) =>
    reply.status(202).send(await service.retry(currentUser(request), request.params.id)),
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

  done();
};
