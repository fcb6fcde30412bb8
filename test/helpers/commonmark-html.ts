/**
 * Normalises HTML for comparing our rendering of a CommonMark spec example with the spec's expected
 * HTML (test/content/commonmark-spec.test.ts). Both sides are parsed by the same HTML parser and
 * written back the same way, after:
 * - whitespace: outside <pre>, every run of whitespace in text is one space, text at the start or end of
 *   a block element is trimmed and whitespace-only text between blocks is dropped (a browser renders
 *   the spec's "\n" between words and our " " alike; inside <pre> nothing is touched);
 * - our wrappers are unwrapped: the code block's <figure class="code-block"> and its scrolling
 *   <div class="code-scroll">, keeping the <pre> they hold;
 * - our attributes are dropped: id, class, role, aria-*, tabindex, loading and an external link's
 *   rel="noopener" (the expected HTML has only the href, src, alt, title and start CommonMark gives).
 * Nothing else is changed: tags, their nesting, text, URLs and the remaining attributes must match.
 */
import { raw } from 'hast-util-raw';
import type { Root, RootContent, Element, Properties } from 'hast';

const BLOCK = new Set(['address', 'article', 'aside', 'blockquote', 'dd', 'details', 'div', 'dl', 'dt', 'figcaption', 'figure',
  'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'summary',
  'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul']);
const VOID = new Set(['area', 'br', 'col', 'embed', 'hr', 'img', 'input', 'source', 'track', 'wbr']);
const OURS = new Set(['id', 'className', 'role', 'tabIndex', 'loading', 'rel']);
/** The rich-text model's italic and bold marks, which the renderer writes as <i> and <b>. */
const MARK_TAGS: Record<string, string> = { i: 'em', b: 'strong' };
const WRAPPERS = new Set(['code-block', 'code-scroll']);

export function normaliseHtml(html: string): string {
  const tree = raw({ type: 'root', children: [{ type: 'raw', value: html } as unknown as RootContent] }) as Root;
  return serialise(clean(tree.children, false)).trim();
}

function classes(el: Element): string[] {
  const c = el.properties.className;
  return Array.isArray(c) ? c.map(String) : [];
}

function clean(nodes: RootContent[], inPre: boolean): RootContent[] {
  const out: RootContent[] = [];
  for (const node of nodes) {
    if (node.type === 'comment' || node.type === 'doctype') continue;
    if (node.type === 'text') {
      out.push(inPre ? node : { type: 'text', value: node.value.replace(/[ \t\n\r\f]+/g, ' ') });
      continue;
    }
    if (node.type !== 'element') continue;
    const tagName = MARK_TAGS[node.tagName] ?? node.tagName;
    if ((node.tagName === 'figure' || node.tagName === 'div') && classes(node).some((c) => WRAPPERS.has(c))) {
      out.push(...clean(node.children as RootContent[], inPre));
      continue;
    }
    const properties: Properties = {};
    for (const [k, v] of Object.entries(node.properties)) {
      if (OURS.has(k) || /^aria[A-Z]/.test(k)) continue;
      properties[k] = v;
    }
    const children = clean(node.children as RootContent[], inPre || node.tagName === 'pre') as Element['children'];
    // A code block's last line ending is not rendered.
    const last = children[children.length - 1];
    if (node.tagName === 'code' && inPre && last?.type === 'text') last.value = last.value.replace(/\n$/, '');
    const previous = out[out.length - 1];
    if (previous?.type === 'element' && MARK_TAGS[previous.tagName] === undefined && tagName !== node.tagName
      && previous.tagName === tagName && Object.keys(previous.properties).length === 0 && Object.keys(properties).length === 0) {
      // Marks are per text run: `<em>a</em><em>b</em>` is `<em>ab</em>`.
      previous.children.push(...children);
      continue;
    }
    out.push({ ...node, tagName, properties, children });
  }
  // Whitespace next to a block boundary is not rendered.
  const isBlock = (n: RootContent | undefined) => n?.type === 'element' && (BLOCK.has(n.tagName) || n.tagName === 'br');
  return out.flatMap((node, i) => {
    if (node.type !== 'text' || inPre) return [node];
    let value = node.value;
    if (i === 0 || isBlock(out[i - 1])) value = value.replace(/^ /, '');
    if (i === out.length - 1 || isBlock(out[i + 1])) value = value.replace(/ $/, '');
    return value ? [{ ...node, value }] : [];
  });
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function attribute(name: string): string {
  return name === 'htmlFor' ? 'for' : name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

function serialise(nodes: RootContent[]): string {
  return nodes.map((node) => {
    if (node.type === 'text') return escape(node.value);
    if (node.type !== 'element') return '';
    const attrs = Object.entries(node.properties).sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => (v === true ? ` ${attribute(k)}` : v === false || v === null || v === undefined ? '' : ` ${attribute(k)}="${escape(Array.isArray(v) ? v.join(' ') : String(v))}"`))
      .join('');
    if (VOID.has(node.tagName)) return `<${node.tagName}${attrs}>`;
    return `<${node.tagName}${attrs}>${serialise(node.children as RootContent[])}</${node.tagName}>`;
  }).join('');
}
