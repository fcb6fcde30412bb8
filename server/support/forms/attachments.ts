/**
 * Files sent with a support request (issue 'Attachments'): a few per request, a size cap each, and an
 * allowlist of extensions. The extension decides the stored content type (never the browser's word),
 * and the first bytes are checked against it, so an executable renamed `.png` or `.txt` is refused.
 */
import type { NewAttachment } from '../store.ts';

export interface AttachmentRules {
  maxFiles: number;
  maxBytes: number;
  /** Allowed extensions, lower case, without the dot. */
  types: string[];
}

export const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', pdf: 'application/pdf',
  txt: 'text/plain', log: 'text/plain', csv: 'text/csv', json: 'application/json', xml: 'application/xml',
  zip: 'application/zip', har: 'application/json',
};

const TEXT = new Set(['txt', 'log', 'csv', 'json', 'xml', 'har']);

const starts = (data: Buffer, ...bytes: number[]) => bytes.every((b, i) => data[i] === b);
const ascii = (data: Buffer, at: number, text: string) => data.subarray(at, at + text.length).toString('latin1') === text;

/** Signatures of each binary type we accept. */
const SIGNATURES: Record<string, (d: Buffer) => boolean> = {
  png: (d) => starts(d, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
  jpg: (d) => starts(d, 0xff, 0xd8, 0xff),
  jpeg: (d) => starts(d, 0xff, 0xd8, 0xff),
  gif: (d) => ascii(d, 0, 'GIF87a') || ascii(d, 0, 'GIF89a'),
  webp: (d) => ascii(d, 0, 'RIFF') && ascii(d, 8, 'WEBP'),
  pdf: (d) => ascii(d, 0, '%PDF-'),
  zip: (d) => starts(d, 0x50, 0x4b, 0x03, 0x04) || starts(d, 0x50, 0x4b, 0x05, 0x06),
};

/** Programs, whatever their name says: Windows (MZ), ELF, Mach-O, shell scripts. */
function isProgram(d: Buffer): boolean {
  return starts(d, 0x4d, 0x5a) || starts(d, 0x7f, 0x45, 0x4c, 0x46) || starts(d, 0xcf, 0xfa, 0xed, 0xfe)
    || starts(d, 0xfe, 0xed, 0xfa, 0xcf) || starts(d, 0xca, 0xfe, 0xba, 0xbe) || ascii(d, 0, '#!');
}

export function extensionOf(filename: string): string {
  const match = /\.([A-Za-z0-9]+)$/.exec(filename);
  return match ? (match[1] as string).toLowerCase() : '';
}

/** Why a file is refused, or undefined when it is fine. Size is checked while reading. */
export function fileProblem(filename: string, data: Buffer, rules: AttachmentRules): 'type' | 'mismatch' | undefined {
  const ext = extensionOf(filename);
  if (!ext || !rules.types.includes(ext)) return 'type';
  if (data.length === 0) return undefined;
  if (isProgram(data)) return 'mismatch';
  const signature = SIGNATURES[ext];
  if (signature) return signature(data) ? undefined : 'mismatch';
  // Text types hold text: no NUL byte in the first few kilobytes, and no binary type's signature.
  if (TEXT.has(ext)) {
    const head = data.subarray(0, 8192);
    if (head.includes(0) || Object.entries(SIGNATURES).some(([k, sig]) => k !== 'pdf' && sig(head))) return 'mismatch';
  }
  return undefined;
}

export function storedAttachment(filename: string, data: Buffer): NewAttachment {
  // The name as the visitor's system gave it, without any folder part or control character, and bounded.
  const base = (filename.split(/[\\/]/).pop() ?? 'file').replace(/[\u0000-\u001f\u007f]/g, '');
  return { filename: base.slice(-200) || 'file', contentType: CONTENT_TYPES[extensionOf(base)] ?? 'application/octet-stream', data };
}

/** A size in words: 10 MB, 512 KB. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}
