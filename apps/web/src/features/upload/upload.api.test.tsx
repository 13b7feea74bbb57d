import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client.ts';
import { buildUploadForm, uploadBytes, uploadProduct, type UploadProgress, type UploadValues } from './upload.api.ts';

type Reply = { status: number; body: unknown };

/** A stand-in for XMLHttpRequest that reports upload progress and answers from a script. */
class FakeXhr {
  static replies: Reply[] = [];
  static sent: FakeXhr[] = [];
  method = '';
  url = '';
  withCredentials = false;
  status = 0;
  responseText = '';
  headers: Record<string, string> = {};
  body: FormData | undefined;
  upload: {
    onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null;
  } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
    const reply = FakeXhr.replies.shift();
    if (!reply) throw new Error('no scripted reply');
    queueMicrotask(() => {
      this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
      this.upload.onprogress?.({ lengthComputable: true, loaded: 100, total: 100 });
      this.status = reply.status;
      this.responseText = JSON.stringify(reply.body);
      this.onload?.();
    });
  }
  abort() {
    this.onabort?.();
  }
}

let refreshCalls = 0;

beforeEach(() => {
  FakeXhr.replies = [];
  FakeXhr.sent = [];
  refreshCalls = 0;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  vi.stubGlobal('fetch', (url: string) => {
    if (url === '/api/auth/refresh') {
      refreshCalls += 1;
      return Promise.resolve(
        new Response(JSON.stringify({ token: 'a', refreshToken: 'b' }), { status: 200 }),
      );
    }
    return Promise.resolve(new Response('{}', { status: 404 }));
  });
});
afterEach(() => vi.unstubAllGlobals());

const values: UploadValues = {
  caseId: 'C-1',
  gender: 'male',
  symptoms: 'Broad thumbs',
  hpoTerms: ['HP:0011304'],
  excludedTerms: [],
  assembly: 'GRCh37',
  imageDescription: '',
  genomeFile: new File(['##fileformat=VCFv4.2\n'], 'case.vcf'),
  additionalFiles: [],
};

describe('uploadProduct', () => {
  it('posts the form with credentials and reports progress until the case is queued', async () => {
    FakeXhr.replies = [{ status: 202, body: { id: 'p1', status: 'In queue' } }];
    const progress: UploadProgress[] = [];
    await expect(uploadProduct(values, (p) => progress.push(p))).resolves.toEqual({
      id: 'p1',
      status: 'In queue',
    });
    const [xhr] = FakeXhr.sent;
    expect(xhr?.method).toBe('POST');
    expect(xhr?.url).toBe('/api/products');
    expect(xhr?.withCredentials).toBe(true);
    expect(xhr?.body?.get('caseId')).toBe('C-1');
    expect(progress).toEqual([
      { loaded: 50, total: 100 },
      { loaded: 100, total: 100 },
    ]);
  });

  it('refreshes an expired session once and sends the upload again', async () => {
    FakeXhr.replies = [
      { status: 401, body: { code: 'unauthorized', message: 'Authentication required' } },
      { status: 202, body: { id: 'p2', status: 'In queue' } },
    ];
    await expect(uploadProduct(values, () => undefined)).resolves.toEqual({
      id: 'p2',
      status: 'In queue',
    });
    expect(refreshCalls).toBe(1);
    expect(FakeXhr.sent).toHaveLength(2);
  });

  it('rejects with the server message and field issues of a refused upload', async () => {
    FakeXhr.replies = [
      {
        status: 400,
        body: {
          code: 'validation_failed',
          message: 'genomeFile: not a VCF or FASTQ file (line 1 does not start with ##fileformat)',
          issues: [{ path: ['genomeFile'], message: 'not a VCF or FASTQ file' }],
        },
      },
    ];
    const error = await uploadProduct(values, () => undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toMatch(/not a VCF or FASTQ file/);
    expect((error as ApiError).issues?.[0]?.path).toEqual(['genomeFile']);
  });

  it('rejects with an AbortError when cancelled', async () => {
    FakeXhr.replies = [{ status: 202, body: { id: 'p3', status: 'In queue' } }];
    const controller = new AbortController();
    controller.abort();
    const error = await uploadProduct(values, () => undefined, controller.signal).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');
  });
});

describe('buildUploadForm with a family', () => {
  it('sends the pedigree, the proband and each relative\'s separately called VCF under their own fields', () => {
    const father = new File(['##fileformat=VCFv4.2\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tDAD\n'], 'dad.vcf');
    const mother = new File(['##fileformat=VCFv4.2\n'], 'mom.vcf.gz');
    const ped = new File(['f\tKID\tDAD\tMOM\t1\t2\n'], 'trio.ped');
    const trio: UploadValues = { ...values, pedigreeFile: ped, probandSample: ' KID ', relativeGenomeFiles: [father, mother] };
    const form = buildUploadForm(trio);
    expect(form.get('probandSample')).toBe('KID');
    expect((form.get('pedigreeFile') as File).name).toBe('trio.ped');
    expect(form.getAll('relativeGenomeFiles').map((f) => (f as File).name)).toEqual(['dad.vcf', 'mom.vcf.gz']);
    expect((form.get('genomeFile') as File).name).toBe('case.vcf');
    expect(uploadBytes(trio)).toBe(values.genomeFile.size + father.size + mother.size);
    expect(buildUploadForm(values).getAll('relativeGenomeFiles')).toEqual([]);
  });
});

