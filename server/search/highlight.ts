/**
 * Search highlights: the text is escaped first, then matched terms are wrapped in <mark>. Content
 * HTML never passes through (DESIGN 'Safety by construction').
 */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** Escapes text in which start/stop markers surround matches, and turns the markers into <mark>. */
export function markHighlights(text: string, start = '\u0002', stop = '\u0003'): string {
  const clean = text.replace(/[\u0000-\u0001\u0004-\u0008\u000b\u000c\u000e-\u001f]/g, '');
  let out = '';
  let open = false;
  for (const part of clean.split(new RegExp(`([${start}${stop}])`))) {
    if (part === start) {
      if (!open) out += '<mark>';
      open = true;
    } else if (part === stop) {
      if (open) out += '</mark>';
      open = false;
    } else out += escapeHtml(part);
  }
  return open ? `${out}</mark>` : out;
}

/** E-mail-like text is masked before a search term reaches logs or analytics (spec §5). */
export function maskEmails(text: string): string {
  return text.replace(/[^\s@<>()]+@[^\s@<>()]+\.[^\s@<>()]+/g, '[email]');
}
