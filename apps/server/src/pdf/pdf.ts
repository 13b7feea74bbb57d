/** Shared pieces of the PDFs the server renders (clinical report, invoice): fonts and output. */
import { existsSync } from 'node:fs';

export const DEJAVU_DIR = '/usr/share/fonts/truetype/dejavu';

export interface Fonts {
  regular: string;
  bold: string;
  italic: string;
}

/** DejaVu Sans (wide Unicode coverage: ≥, ×, €, accented names) when installed, else Helvetica. */
export function registerFonts(doc: PDFKit.PDFDocument, fontDir: string = DEJAVU_DIR): Fonts {
  const files = { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf', italic: 'DejaVuSans-Oblique.ttf' };
  if (Object.values(files).every((f) => existsSync(`${fontDir}/${f}`))) {
    doc.registerFont('body', `${fontDir}/${files.regular}`);
    doc.registerFont('body-bold', `${fontDir}/${files.bold}`);
    doc.registerFont('body-italic', `${fontDir}/${files.italic}`);
    return { regular: 'body', bold: 'body-bold', italic: 'body-italic' };
  }
  return { regular: 'Helvetica', bold: 'Helvetica-Bold', italic: 'Helvetica-Oblique' };
}

/** The bytes of `doc` once `doc.end()` has been called; call before writing anything. */
export function collectPdf(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  return new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}
