/**
 * /api/products/:id/raw-data: the raw data analysis of a FASTQ case.
 *  - GET /raw-data: QC, reference, tools and command lines (read access);
 *  - GET /raw-data/alignments.bam and .bai: the genome browser's alignments track, with HTTP
 *    range requests (read access: owner and shared users);
 *  - GET /raw-data/reference.fa and .fai: the reference sequence the reads were aligned to, when
 *    this server holds it (read access, ranged reads);
 *  - GET /raw-data/files/:name: downloads of the BAM, the called VCF and their indexes (owner).
 */
import { RawDataFileName, RawDataInfo, ReadsReference } from '@rarelens/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contentDisposition } from '../../http/content-disposition.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { RawDataFile, RawDataService } from './raw-data.service.ts';

const IdParams = z.object({ id: z.string() });
const FileParams = IdParams.extend({ name: RawDataFileName });

function send(reply: FastifyReply, f: RawDataFile, download: boolean) {
  reply.header('content-type', f.mediaType).header('accept-ranges', 'bytes').header('x-content-type-options', 'nosniff');
  if (download) reply.header('content-disposition', contentDisposition(f.name));
  if (f.range) {
    return reply
      .status(206)
      .header('content-range', `bytes ${f.range.start}-${f.range.end}/${f.size}`)
      .header('content-length', String(f.range.end - f.range.start + 1))
      .send(f.stream);
  }
  return reply.header('content-length', String(f.size)).send(f.stream);
}

export const rawDataRoutes: FastifyPluginCallbackZod<{ rawDataService: RawDataService }> = (app, { rawDataService: service }, done) => {
  app.addHook('onRequest', app.authenticate);

  app.get('/:id/raw-data', { schema: { params: IdParams, response: { 200: RawDataInfo } } }, (request) =>
    service.info(currentUser(request), request.params.id),
  );
  for (const name of ['alignments.bam', 'alignments.bam.bai'] as const) {
    app.get(`/:id/raw-data/${name}`, { schema: { params: IdParams } }, async (request, reply) =>
      send(reply, await service.track(currentUser(request), request.params.id, name, request.headers.range), false),
    );
  }
  for (const name of ['reference.fa', 'reference.fa.fai'] as const) {
    app.get(`/:id/raw-data/${name}`, { schema: { params: IdParams } }, async (request, reply) =>
      send(reply, await service.referenceFile(currentUser(request), request.params.id, name, request.headers.range), false),
    );
  }
  app.get('/:id/raw-data/files/:name', { schema: { params: FileParams } }, async (request, reply) =>
    send(reply, await service.download(currentUser(request), request.params.id, request.params.name), true),
  );
  done();
};

/**
 * /api/raw-data/reference (signed-in users): the reference FASTQ uploads are aligned to here, so
 * the upload form says when it is the shipped demo reference rather than a genome.
 */
export const readsReferenceRoutes: FastifyPluginCallbackZod<{ reference: () => Promise<ReadsReference> }> = (app, { reference }, done) => {
  app.addHook('onRequest', app.authenticate);
  app.get('/reference', { schema: { response: { 200: ReadsReference } } }, () => reference());
  done();
};
