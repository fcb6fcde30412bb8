/**
 * A reply's body as posted: urlencoded (text only) or multipart (text and files). Files get the forms'
 * checks (server/support/forms/attachments.ts): how many, how large, which types, and whether their bytes
 * are what their names say. The whole body is read, so a refusal comes back on the page with its reasons.
 */
import type { FastifyRequest } from 'fastify';
import type { NewAttachment } from '../store.ts';
import { fileProblem, sizeText, storedAttachment, type AttachmentRules } from '../forms/attachments.ts';
import type { Strings } from '../../../views/i18n/catalogue.tsx';

/** The longest reply, as the forms' longest text. */
export const MAX_REPLY_LENGTH = 20_000;

export type ReplyProblem = 'required' | 'tooLong' | 'control';

export interface ReadReply {
  /** The text fields posted (the first value of each). */
  fields: Partial<Record<'body' | '_csrf' | 'submissionKey' | 'key', string>>;
  attachments: NewAttachment[];
  /** Each refused file, in words. */
  fileErrors: string[];
  bodyProblems(body: string): ReplyProblem[];
}

const FIELDS = new Set(['body', '_csrf', 'submissionKey', 'key']);

/** Characters a reply may not carry: controls other than tab and line breaks. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

function bodyProblems(body: string): ReplyProblem[] {
  if (!body) return ['required'];
  if (CONTROL.test(body)) return ['control'];
  if (body.length > MAX_REPLY_LENGTH) return ['tooLong'];
  return [];
}

export async function readReply(request: FastifyRequest, rules: AttachmentRules, t: Strings['supportForm']['errors']): Promise<ReadReply> {
  const fields: ReadReply['fields'] = {};
  const keep = (name: string, value: unknown) => {
    if (FIELDS.has(name) && typeof value === 'string' && fields[name as keyof ReadReply['fields']] === undefined) {
      fields[name as keyof ReadReply['fields']] = value;
    }
  };
  if (!request.isMultipart()) {
    const posted = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
    for (const [name, value] of Object.entries(posted)) keep(name, Array.isArray(value) ? value[0] : value);
    return { fields, attachments: [], fileErrors: [], bodyProblems };
  }
  const attachments: NewAttachment[] = [];
  const fileErrors: string[] = [];
  const types = rules.types.join(', ');
  const extra: string[] = [];
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      keep(part.fieldname, part.value);
      continue;
    }
    const data = await part.toBuffer();
    // A file input left empty sends one part with no name and no bytes.
    if (!part.filename && data.length === 0) continue;
    if (part.fieldname !== 'files') {
      fileErrors.push(t.fileType(part.filename, types));
    } else if (attachments.length >= rules.maxFiles) {
      extra.push(part.filename);
    } else if (part.file.truncated) {
      fileErrors.push(t.fileTooLarge(part.filename, sizeText(rules.maxBytes)));
    } else {
      const problem = fileProblem(part.filename, data, rules);
      if (problem === 'type') fileErrors.push(t.fileType(part.filename, types));
      else if (problem === 'mismatch') fileErrors.push(t.fileMismatch(part.filename));
      else attachments.push(storedAttachment(part.filename, data));
    }
  }
  if (extra.length > 0) fileErrors.push(t.tooManyFiles(rules.maxFiles, extra.join(', ')));
  return { fields, attachments, fileErrors, bodyProblems };
}
