import {
  CreateProductResponse,
  ErrorBody,
  FamilyUploadFieldNames,
  HpoSearchResponse,
  Messages,
  UploadFieldNames,
  type AssemblyChoice,
  type Gender,
} from '@rarelens/contract';
import { ApiError, LocaleHeader, api, refreshTokens } from '../../lib/api-client.ts';
import { getLocale } from '../../lib/locale.ts';

export type UploadValues = {
  caseId: string;
  gender: Gender;
  symptoms: string;
  hpoTerms: string[];
  excludedTerms: string[];
  assembly: AssemblyChoice;
  imageDescription: string;
  genomeFile: File;
  /** The mate FASTQ of paired reads. */
  genomeMateFile?: File | null;
  additionalFiles: File[];
  /** Family VCF: the pedigree as a PED file (uploaded, or written by the pedigree editor). */
  pedigreeFile?: File | null;
  /** Family VCF: the proband's sample name ('' = the server's default). */
  probandSample?: string;
  /** The relatives' separately called VCFs (one person each); the genome file is the proband's. */
  relativeGenomeFiles?: File[];
};

export type UploadProgress = { loaded: number; total: number };

/**
 * The multipart body of POST /api/products. Text fields come first so the server can
 * validate them before the (possibly multi-gigabyte) genome file streams in.
 */
export function buildUploadForm(values: UploadValues): FormData {
  const form = new FormData();
  form.append('caseId', values.caseId);
  form.append('gender', values.gender);
  form.append('symptoms', values.symptoms);
  form.append('hpoTerms', JSON.stringify(values.hpoTerms));
  if (values.excludedTerms.length > 0)
    form.append('excludedTerms', JSON.stringify(values.excludedTerms));
  form.append('assembly', values.assembly);
  if (values.imageDescription.trim() !== '')
    form.append('imageDescription', values.imageDescription.trim());
  if (values.probandSample?.trim()) form.append(FamilyUploadFieldNames.probandSample, values.probandSample.trim());
  for (const file of values.additionalFiles)
    form.append(UploadFieldNames.additionalFiles, file, file.name);
  if (values.pedigreeFile)
    form.append(FamilyUploadFieldNames.pedigreeFile, values.pedigreeFile, values.pedigreeFile.name);
  for (const file of values.relativeGenomeFiles ?? [])
    form.append(FamilyUploadFieldNames.relativeGenomeFiles, file, file.name);
  form.append(UploadFieldNames.genomeFile, values.genomeFile, values.genomeFile.name);
  if (values.genomeMateFile)
    form.append(UploadFieldNames.genomeMateFile, values.genomeMateFile, values.genomeMateFile.name);
  return form;
}

function parseError(status: number, text: string): ApiError {
  try {
    const parsed = ErrorBody.safeParse(JSON.parse(text));
    if (parsed.success) return new ApiError(status, parsed.data);
  } catch {
    // Not JSON: a proxy page or an aborted connection.
  }
  if (status === 413)
    return new ApiError(status, {
      code: 'payload_too_large',
      message: 'The file is larger than the upload limit',
    });
  return new ApiError(status, {
    code: status >= 500 ? 'internal' : 'http_error',
    message: Messages.somethingWentWrong,
  });
}

/**
 * Sends the form with XMLHttpRequest, because fetch cannot report upload progress.
 * Resolves with the created case; rejects with ApiError (or an AbortError DOMException).
 */
function sendOnce(form: FormData, onProgress: (p: UploadProgress) => void, signal?: AbortSignal) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/products');
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader(LocaleHeader, getLocale());
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress({ loaded: event.loaded, total: event.total });
    };
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () =>
      reject(
        new ApiError(0, {
          code: 'network_error',
          message: 'The upload was interrupted. Check your connection and try again.',
        }),
      );
    xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    if (signal) {
      if (signal.aborted) {
        reject(new DOMException('The upload was cancelled', 'AbortError'));
        return;
      }
      signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(form);
  });
}

/** Bytes of the files one upload sends (for the progress bar). */
export function uploadBytes(values: Pick<UploadValues, 'genomeFile' | 'genomeMateFile' | 'relativeGenomeFiles'>): number {
  return values.genomeFile.size + (values.genomeMateFile?.size ?? 0) + (values.relativeGenomeFiles ?? []).reduce((n, f) => n + f.size, 0);
}

/** POST /api/products with progress; an expired access token is refreshed once and the upload retried. */
export async function uploadProduct(
  values: UploadValues,
  onProgress: (p: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<CreateProductResponse> {
  let response = await sendOnce(buildUploadForm(values), onProgress, signal);
  if (response.status === 401 && (await refreshTokens())) {
    onProgress({ loaded: 0, total: uploadBytes(values) });
    response = await sendOnce(buildUploadForm(values), onProgress, signal);
  }
  if (response.status < 200 || response.status >= 300)
    throw parseError(response.status, response.text);
  const parsed = CreateProductResponse.safeParse(JSON.parse(response.text));
  if (!parsed.success)
    throw new ApiError(response.status, {
      code: 'invalid_response',
      message: Messages.somethingWentWrong,
    });
  return parsed.data;
}

export type HpoSuggestion = HpoSearchResponse['items'][number];

/** GET /api/hpo/terms?q=: ontology autocomplete by label, synonym or id. */
export function searchHpoTerms(q: string, signal?: AbortSignal): Promise<HpoSuggestion[]> {
  return api
    .get('/api/hpo/terms', { schema: HpoSearchResponse, query: { q, limit: 12 }, signal })
    .then((r) => r.items);
}
