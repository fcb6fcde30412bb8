/**
 * Headers of an attachment download: always a download (Content-Disposition: attachment), with a type
 * that no browser runs (HTML, SVG, scripts become application/octet-stream), and a CSP that forbids
 * everything should a browser show it anyway.
 */
const SAFE_TYPES = new Set([
  'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'text/plain', 'text/csv',
  'application/json', 'application/zip', 'application/x-zip-compressed',
]);

/** The filename as a quoted ASCII fallback and as RFC 5987 UTF-8 (RFC 6266). */
export function contentDisposition(filename: string): string {
  const cleaned = filename.replace(/[\u0000-\u001f\u007f"\\/]/g, '_').slice(0, 200) || 'attachment';
  const ascii = cleaned.replace(/[^\x20-\x7e]/g, '_');
  const encoded = encodeURIComponent(cleaned).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export function safeType(contentType: string): string {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!SAFE_TYPES.has(type)) return 'application/octet-stream';
  return type.startsWith('text/') ? `${type}; charset=utf-8` : type;
}

export function attachmentHeaders(filename: string, contentType: string): Record<string, string> {
  return {
    'content-type': safeType(contentType),
    'content-disposition': contentDisposition(filename),
    'content-security-policy': "default-src 'none'; sandbox",
    'x-content-type-options': 'nosniff',
    'cache-control': 'private, no-store',
  };
}
