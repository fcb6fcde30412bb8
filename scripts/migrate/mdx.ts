/**
 * The MDX of Docusaurus and Starlight bodies as Signpost Markdown (docs/ "Authoring content"):
 * components become the directives that render the same way (`<Aside>` an admonition, `<CardGrid>` a
 * card grid, `<Steps>`, `<FileTree>`, `<details>`, nested `<Tabs>`, YouTube embeds and iframes), titled
 * admonitions get their title in brackets, and highlight comments in code become highlighted lines.
 * A component with no counterpart keeps its text without its tags, and is noted. Code fences and inline
 * code are never read for tags.
 */
import { lookupIcon } from '../../server/content/markdown/icons.ts';
import { dedent, group, trimBlank, type Tab } from './tabs.ts';

export interface MdxOptions {
  /** Line of the body's first line in the source file. */
  firstLine: number;
  /** The link to write for a card's href (relative .mdx links become .md, and the like). */
  href?: (href: string) => string;
}

export interface MdxResult {
  lines: string[];
  /** What was changed or left out, each starting `line N:` (the source file's line). */
  notes: string[];
  /** Hosts of the players and embedded pages written (for site.yaml's videoHosts and embedHosts). */
  videoHosts: string[];
  embedHosts: string[];
}

type Attrs = Record<string, string | true>;
interface Element {
  name: string;
  attrs: Attrs;
  /** Attributes whose value is a JavaScript expression, which is not read. */
  unreadable: string[];
  line: number;
  indent: string;
  /** The opening tag stood on a line of its own. */
  alone: boolean;
  parts: Part[];
}
type Part = string | Element;

/** Elements read as components besides capitalised names. */
const BLOCKS = new Set(['Aside', 'Admonition', 'Card', 'CardGrid', 'LinkCard', 'Steps', 'FileTree', 'Tabs', 'details', 'LiteYouTubeEmbed', 'iframe']);
const ADMONITIONS: Record<string, string> = {
  note: 'note', tip: 'tip', info: 'info', caution: 'caution', danger: 'danger', warning: 'warning', important: 'important', secondary: 'note',
};
/** Players whose iframes are videos (`::video`); any other host is an embed. */
const VIDEO_HOSTS = new Set(['www.youtube.com', 'youtube.com', 'www.youtube-nocookie.com', 'player.vimeo.com', 'fast.wistia.net', 'www.loom.com']);
/** Starlight's icon names that Lucide spells otherwise. */
const ICONS: Record<string, string> = {
  setting: 'settings', 'open-book': 'book-open', information: 'info', 'right-arrow': 'arrow-right', 'left-arrow': 'arrow-left',
  'up-arrow': 'arrow-up', 'down-arrow': 'arrow-down', external: 'external-link', 'approve-check': 'circle-check', 'approve-check-circle': 'circle-check',
  close: 'x', 'add-document': 'file-plus', document: 'file-text', seti: 'file-code', puzzle: 'puzzle', laptop: 'laptop', rocket: 'rocket',
  star: 'star', pencil: 'pencil', 'list-format': 'list', 'magnifier': 'search', warning: 'triangle-alert', error: 'circle-x',
};
const FENCE = /^(\s*)(`{3,}|~{3,})(.*)$/;
const IMPORT = /^\s*(import\s.+\sfrom\s+['"].+['"]|import\s+['"].+['"]|export\s+(const|default|function)\b.*);?\s*$/;
const MAGIC = /^\s*(?:\/\/|#|--|;|%|\/\*|\{\/\*|<!--)\s*highlight-(next-line|start|end)\s*(?:\*\/\}?|-->)?\s*$/;
const TITLED_ADMONITION = /^(\s*)(:{3,})(note|tip|info|warning|danger|caution|important|secondary|success)[ \t]+([^\s[{].*?)\s*$/;
/** Starlight's `:::tip{icon="heart"}`: an aside with an icon of its own. */
const ADMONITION_ICON = /^(\s*:{3,}[a-z]+(?:\[.*\])?)\{([^}]*?)\bicon=("[^"]*"|'[^']*'|\S+)([^}]*)\}\s*$/;
const BARE_ADMONITION = /^(\s*)(:{3,})(secondary|success)\s*$/;

export function convertMdx(source: string[], options: MdxOptions): MdxResult {
  const notes: string[] = [];
  const videoHosts = new Set<string>();
  const embedHosts = new Set<string>();
  const root: Element = { name: '', attrs: {}, unreadable: [], line: 0, indent: '', alone: true, parts: [] };
  const stack: Element[] = [root];
  const current = () => stack[stack.length - 1] as Element;
  const noteAt = (line: number, message: string) => notes.push(`line ${line}: ${message}`);

  for (let i = 0; i < source.length; i++) {
    const line = source[i] as string;
    const at = options.firstLine + i;
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[2] as string;
      let end = i + 1;
      while (end < source.length && !new RegExp(`^\\s*${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`).test(source[end] as string)) end++;
      const code = highlightComments(line, source.slice(i + 1, end));
      current().parts.push(`${[...code, ...(end < source.length ? [source[end] as string] : [])].join('\n')}\n`);
      i = end;
      continue;
    }
    if (IMPORT.test(line)) {
      noteAt(at, `MDX ${line.trim().startsWith('import') ? 'import' : 'export'} removed: \`${line.trim()}\``);
      continue;
    }
    if (line.trim().startsWith('{/*') && !line.includes('*/}')) {
      // A comment over several lines: gone, as the reader never saw it.
      while (i + 1 < source.length && !(source[i] as string).includes('*/}')) i++;
      continue;
    }
    const icon = ADMONITION_ICON.exec(line);
    if (icon) {
      const rest = `${icon[2] ?? ''} ${icon[4] ?? ''}`.trim();
      noteAt(at, `aside icon ${icon[3]} — left out: the admonition shows its type's icon`);
      current().parts.push(`${icon[1]}${rest ? `{${rest}}` : ''}\n`);
      continue;
    }
    const titled = TITLED_ADMONITION.exec(line);
    const bare = BARE_ADMONITION.exec(line);
    if (titled || bare) {
      const [, indent, colons, type, title] = (titled ?? bare) as RegExpExecArray;
      current().parts.push(`${type === 'success'
        ? `${indent}${colons}callout{appearance="success" heading="${attribute(title ?? 'Success')}"}`
        : `${indent}${colons}${ADMONITIONS[type as string]}${title ? `[${label(title)}]` : ''}`}\n`);
      continue;
    }
    // Tags, outside inline code; an opening tag may go on over the next lines.
    let text = line.replace(/\{\/\*.*?\*\/\}/g, '');
    let pos = 0;
    for (;;) {
      const masked = maskCode(text);
      const found = /<(\/?)([A-Z][\w.]*|details|summary|iframe)(?=[\s/>]|$)/g;
      found.lastIndex = pos;
      const m = found.exec(masked);
      if (!m) break;
      let tag = readTag(text, m.index);
      // A real page's attribute (a list of videos as a JavaScript literal) ran to 40 lines and more.
      while (!tag && i + 1 < source.length && i - (at - options.firstLine) < 300) {
        text += `\n${source[++i] as string}`;
        tag = readTag(text, m.index);
      }
      if (!tag) break;
      const before = text.slice(pos, m.index);
      const alone = before.trim() === '' && (pos === 0 || text.slice(0, pos).trim() === '');
      if (before) current().parts.push(before);
      const name = m[2] as string;
      if (m[1]) {
        const open = stack.map((e) => e.name).lastIndexOf(name);
        if (open > 0) {
          while (stack.length > open + 1) {
            const unclosed = stack.pop() as Element;
            noteAt(unclosed.line, `<${unclosed.name}> is not closed: closed at </${name}>`);
            current().parts.push(unclosed);
          }
          const done = stack.pop() as Element;
          current().parts.push(done);
        } else noteAt(at, `</${name}> closes nothing: removed`);
      } else {
        const element: Element = {
          name, attrs: tag.attrs, unreadable: tag.unreadable, line: at, alone: alone && text.slice(tag.end).trim() === '',
          indent: alone ? /^\s*/.exec(before)?.[0] ?? '' : '', parts: [],
        };
        if (tag.selfClosing) current().parts.push(element);
        else stack.push(element);
      }
      pos = tag.end;
    }
    current().parts.push(`${text.slice(pos)}\n`);
  }
  while (stack.length > 1) {
    const unclosed = stack.pop() as Element;
    noteAt(unclosed.line, `<${unclosed.name}> is not closed: closed at the end of the page`);
    current().parts.push(unclosed);
  }

  const href = options.href ?? ((h: string) => h);

  /** The Markdown of a run of parts, components converted. */
  const emit = (parts: Part[]): string => {
    let out = '';
    let afterBlock = false;
    for (const part of parts) {
      if (typeof part === 'string') {
        out += afterBlock && part.startsWith('\n') ? part.slice(1) : part;
        afterBlock = false;
        continue;
      }
      const block = convert(part);
      if (block === undefined) {
        out += inlineText(part);
        continue;
      }
      out = out.replace(/[ \t]+$/, '');
      if (out !== '' && !out.endsWith('\n')) out += '\n';
      out += `${block.map((l) => (l === '' ? '' : part.indent + l)).join('\n')}\n`;
      afterBlock = true;
    }
    return out;
  };
  const body = (element: Element) => trimBlank(dedent(emit(element.parts).split('\n')));
  /** The text of a component with no counterpart, its tags removed; Starlight's `<Icon>` is an inline icon. */
  const inlineText = (element: Element): string => {
    const icon = element.name === 'Icon' ? cardIcon(str(element, 'name'), element.line, noteAt, '<Icon>') : undefined;
    if (icon) return `:icon{key="${icon}"}`;
    const text = emit(element.parts);
    const fromAttr = ['text', 'label', 'title'].map((k) => element.attrs[k]).find((v): v is string => typeof v === 'string');
    const shown = text.trim() !== '' ? text : fromAttr ?? '';
    noteAt(element.line, `<${element.name}> — not a Signpost block: ${text.trim() !== '' ? 'its text is kept, its tags removed'
      : fromAttr ? `replaced by its text "${fromAttr}"` : 'removed (it has no text)'}`);
    return shown;
  };
  const unreadable = (element: Element) => {
    if (element.unreadable.length > 0) noteAt(element.line, `<${element.name}>: ${element.unreadable.map((a) => `\`${a}\``).join(', ')} is a JavaScript expression, left out`);
  };
  const str = (element: Element, key: string) => (typeof element.attrs[key] === 'string' ? (element.attrs[key] as string).trim() : '');

  /** A component's Markdown lines, or undefined when it has no counterpart (or stands inside a line of text). */
  const convert = (element: Element): string[] | undefined => {
    if (!BLOCKS.has(element.name)) {
      if (!element.alone || !element.parts.some((p) => typeof p !== 'string' || p.includes('\n'))) return undefined;
      // Around blocks of their own: the text as blocks, dedented so it does not turn into code.
      const lines = body(element);
      noteAt(element.line, `<${element.name}> — not a Signpost block: ${lines.some((l) => l.trim() !== '') ? 'its text is kept, its tags removed' : 'removed (it has no text)'}`);
      return lines;
    }
    unreadable(element);
    switch (element.name) {
      case 'Aside': case 'Admonition': {
        const type = ADMONITIONS[str(element, 'type')] ?? 'note';
        const title = str(element, 'title');
        const lines = body(element);
        return [`${colons(lines)}${type}${title ? `[${label(title)}]` : ''}`, ...lines, colons(lines)];
      }
      case 'Card': {
        const lines = body(element);
        const title = str(element, 'title') || 'Card';
        if (!str(element, 'title')) noteAt(element.line, '<Card> has no title: titled "Card"');
        const icon = cardIcon(str(element, 'icon'), element.line, noteAt);
        return [`${colons(lines)}card{${attributes({ title, icon, href: str(element, 'href') ? href(str(element, 'href')) : '' })}}`, ...lines, colons(lines)];
      }
      case 'LinkCard': {
        const title = str(element, 'title');
        const link = str(element, 'href');
        if (!link) {
          noteAt(element.line, '<LinkCard> has no href: its title is kept as text');
          return [title];
        }
        return [`::link-card{${attributes({ title: title || link, href: href(link), description: str(element, 'description') })}}`];
      }
      case 'CardGrid': {
        const cards: string[] = [];
        const loose: Part[] = [];
        for (const part of element.parts) {
          if (typeof part !== 'string' && (part.name === 'Card' || part.name === 'LinkCard')) cards.push(...(convert(part) ?? []));
          else if (typeof part !== 'string' || part.trim() !== '') loose.push(part);
        }
        const after = trimBlank(dedent(emit(loose).split('\n')));
        if (after.length > 0) noteAt(element.line, '<CardGrid> holds more than cards: the rest follows the grid');
        if (cards.length === 0) return after;
        const fence = ':'.repeat(Math.max(4, maxColons(cards) + 1));
        return [`${fence}cards`, ...cards, fence, ...(after.length > 0 ? ['', ...after] : [])];
      }
      case 'Steps': case 'FileTree': {
        const lines = body(element);
        return [`${colons(lines)}${element.name === 'Steps' ? 'steps' : 'file-tree'}`, ...lines, colons(lines)];
      }
      case 'details': {
        const summary = element.parts.find((p): p is Element => typeof p !== 'string' && p.name === 'summary');
        const title = summary ? emit(summary.parts).replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').trim() : '';
        const lines = body({ ...element, parts: element.parts.filter((p) => p !== summary) });
        const open = element.attrs.open !== undefined ? '{open}' : '';
        return [`${colons(lines)}details[${label(title || 'Details')}]${open}`, ...lines, colons(lines)];
      }
      case 'Tabs': {
        const tabs: Tab[] = [];
        for (const part of element.parts) {
          if (typeof part === 'string') {
            if (part.trim() !== '') noteAt(element.line, '<Tabs> holds text outside its tabs: left out');
            continue;
          }
          if (part.name !== 'TabItem') {
            noteAt(part.line, `<${part.name}> in <Tabs> outside a tab: left out`);
            continue;
          }
          unreadable(part);
          const name = str(part, 'label') || str(part, 'value') || `Tab ${tabs.length + 1}`;
          if (!str(part, 'label') && !str(part, 'value')) noteAt(part.line, `<TabItem> has no label: labelled "${name}"`);
          tabs.push({ label: name, lines: emit(part.parts).split('\n') });
        }
        return tabs.length > 0 ? group(tabs) : [];
      }
      case 'LiteYouTubeEmbed': {
        const id = str(element, 'id');
        if (!id) {
          noteAt(element.line, '<LiteYouTubeEmbed> has no id: removed');
          return [];
        }
        videoHosts.add('www.youtube-nocookie.com');
        const title = str(element, 'title') || 'Video';
        if (!str(element, 'title')) noteAt(element.line, '<LiteYouTubeEmbed> has no title: titled "Video"; describe it');
        return [`::video{${attributes({ src: `https://www.youtube-nocookie.com/embed/${encodeURIComponent(id)}`, title })}}`];
      }
      case 'iframe': {
        const src = str(element, 'src');
        let url: URL | undefined;
        try {
          url = new URL(src);
        } catch { /* noted below */ }
        const title = str(element, 'title') || (url ? `Embedded page from ${url.host}` : 'Embedded page');
        if (!url || url.protocol !== 'https:') {
          noteAt(element.line, `<iframe> of ${src || 'no src'} is not an https page: ${src ? 'a link to it instead' : 'removed'}`);
          return src ? [`[${label(title)}](${src})`] : [];
        }
        if (!str(element, 'title')) noteAt(element.line, `<iframe> has no title: titled "${title}"; describe it`);
        const video = VIDEO_HOSTS.has(url.host);
        (video ? videoHosts : embedHosts).add(url.host);
        return [`::${video ? 'video' : 'embed'}{${attributes({ src, title })}}`];
      }
      default:
        return undefined;
    }
  };

  const lines = emit(root.parts).split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return { lines, notes, videoHosts: [...videoHosts].sort(), embedHosts: [...embedHosts].sort() };
}

/** A fence one colon longer than any directive fence in the lines (three at least). */
function colons(lines: string[]): string {
  return ':'.repeat(Math.max(3, maxColons(lines) + 1));
}

function maxColons(lines: string[]): number {
  return Math.max(0, ...lines.map((l) => /^\s*(:{3,})/.exec(l)?.[1]?.length ?? 0));
}

function label(text: string): string {
  return text.replace(/([[\]])/g, '\\$1');
}

function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

function attributes(values: Record<string, string | undefined>): string {
  return Object.entries(values).filter(([, v]) => v).map(([k, v]) => `${k}="${attribute(v as string)}"`).join(' ');
}

/** A Lucide icon for a card's icon name, or none (noted). */
function cardIcon(name: string, line: number, noteAt: (line: number, message: string) => void, what = '<Card>'): string | undefined {
  if (!name) return undefined;
  const key = ICONS[name] ?? name;
  if (lookupIcon(key)) return key;
  noteAt(line, `${what} icon "${name}" has no Lucide counterpart: left out`);
  return undefined;
}

/** The line with the text of its inline code spans blanked, so tags written as code are not read. */
function maskCode(line: string): string {
  return line.replace(/(`+)([\s\S]*?)\1/g, (all) => ' '.repeat(all.length));
}

/** The JSX tag starting at `start`: its attributes and end, or undefined when it does not end in the text. */
function readTag(text: string, start: number): { end: number; attrs: Attrs; unreadable: string[]; selfClosing: boolean } | undefined {
  const attrs: Attrs = {};
  const unreadable: string[] = [];
  let i = start + 1;
  if (text[i] === '/') i++;
  while (i < text.length && /[\w.]/.test(text[i] as string)) i++;
  for (;;) {
    while (i < text.length && /\s/.test(text[i] as string)) i++;
    if (i >= text.length) return undefined;
    if (text[i] === '>') return { end: i + 1, attrs, unreadable, selfClosing: false };
    if (text.startsWith('/>', i)) return { end: i + 2, attrs, unreadable, selfClosing: true };
    const name = /^[\w:.-]+/.exec(text.slice(i))?.[0];
    if (!name) {
      // A spread ({...props}) or something else: skipped to its end.
      if (text[i] === '{') {
        const end = braceEnd(text, i);
        if (end < 0) return undefined;
        unreadable.push(text.slice(i, end + 1));
        i = end + 1;
        continue;
      }
      i++;
      continue;
    }
    i += name.length;
    if (text[i] !== '=') {
      attrs[name] = true;
      continue;
    }
    i++;
    const quote = text[i];
    if (quote === '"' || quote === '\'') {
      const end = text.indexOf(quote, i + 1);
      if (end < 0) return undefined;
      attrs[name] = decodeEntities(text.slice(i + 1, end));
      i = end + 1;
    } else if (quote === '{') {
      const end = braceEnd(text, i);
      if (end < 0) return undefined;
      const expr = text.slice(i + 1, end).trim();
      const literal = /^(["'`])([\s\S]*)\1$/.exec(expr);
      if (literal && !(literal[1] === '`' && literal[2]?.includes('${'))) attrs[name] = literal[2] as string;
      else if (/^-?\d+(\.\d+)?$/.test(expr)) attrs[name] = expr;
      else if (expr === 'true') attrs[name] = true;
      else if (expr !== 'false') unreadable.push(name);
      i = end + 1;
    } else {
      const value = /^[^\s>]+/.exec(text.slice(i))?.[0] ?? '';
      attrs[name] = value;
      i += value.length;
    }
  }
}

function braceEnd(text: string, open: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < text.length; i++) {
    const c = text[i] as string;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === '\'' || c === '`') quote = c;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}

function decodeEntities(value: string): string {
  return value.replace(/&quot;/g, '"').replace(/&#39;|&apos;/g, '\'').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/**
 * A code fence without Docusaurus' highlight comments (`// highlight-next-line`, `// highlight-start` …
 * `// highlight-end`, and the `#`, `/* *\/`, `{/* *\/}`, `<!-- -->` spellings), the lines they marked
 * given in the fence's meta as `{1,3-4}` (merged with any the fence had).
 */
export function highlightComments(open: string, code: string[]): string[] {
  const kept: string[] = [];
  const marked = new Set<number>();
  let next = false;
  let range = false;
  let any = false;
  for (const line of code) {
    const magic = MAGIC.exec(line);
    if (magic) {
      any = true;
      if (magic[1] === 'next-line') next = true;
      else range = magic[1] === 'start';
      continue;
    }
    kept.push(line);
    if (next || range) marked.add(kept.length);
    next = false;
  }
  if (!any) return [open, ...code];
  const [, indent, fence, info] = FENCE.exec(open) as RegExpExecArray;
  let meta = (info ?? '').trim();
  const existing = /(^|\s)\{([\d\s,-]*)\}(?=\s|$)/.exec(meta);
  if (existing) {
    for (const part of (existing[2] ?? '').split(/[\s,]+/).filter(Boolean)) {
      const [from, to = from] = part.split('-').map(Number) as [number, number?];
      for (let n = from; n <= (to ?? from); n++) marked.add(n);
    }
    meta = `${meta.slice(0, existing.index)}${existing[1]}${meta.slice(existing.index + existing[0].length)}`.replace(/\s+/g, ' ').trim();
  }
  if (marked.size === 0) return [`${indent}${fence}${meta}`, ...kept];
  // Without a language the first word of the meta would be taken for one.
  const lang = meta === '' || meta.startsWith('{') || /^\w+=/.test(meta) ? 'text' : '';
  return [`${indent}${fence}${[lang, meta, `{${ranges([...marked].sort((a, b) => a - b))}}`].filter(Boolean).join(' ')}`, ...kept];
}

function ranges(lines: number[]): string {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    let j = i;
    while (j + 1 < lines.length && (lines[j + 1] as number) === (lines[j] as number) + 1) j++;
    out.push(j === i ? String(lines[i]) : `${lines[i]}-${lines[j]}`);
    i = j;
  }
  return out.join(',');
}

/**
 * A card's link as the topic tree has it: a relative `.mdx` link names the `.md` topic, and a site path
 * that is a document's (`/guides/deploy/`) becomes the relative link to it. Anything else is kept.
 */
export function docHref(href: string, from: string, docPaths: readonly string[], locales: readonly string[] = []): string {
  if (/^[a-z][a-z0-9+.-]*:|^#|^\/\//i.test(href)) return href;
  let [path = '', hash] = href.split(/(?=#)/);
  // A translation links its locale's pages (`/ja/guides/x/`): they sit beside it as the site's own pages do.
  const locale = locales.find((l) => path.toLowerCase().startsWith(`/${l.toLowerCase()}/`));
  if (locale) path = path.slice(locale.length + 1);
  if (!path.startsWith('/')) return `${path.replace(/\.mdx$/, '.md')}${hash ?? ''}`;
  const wanted = path.replace(/^\/+|\/+$/g, '').toLowerCase();
  const doc = docPaths.find((p) => p.replace(/\.mdx?$/, '').replace(/(^|\/)index$/, '').toLowerCase() === wanted);
  if (!doc) return href;
  const fromParts = from.split('/').slice(0, -1);
  const toParts = doc.replace(/\.mdx$/, '.md').split('/');
  let common = 0;
  while (common < fromParts.length && common < toParts.length - 1 && fromParts[common] === toParts[common]) common++;
  const rel = [...fromParts.slice(common).map(() => '..'), ...toParts.slice(common)].join('/');
  return `${rel.startsWith('.') ? rel : `./${rel}`}${hash ?? ''}`;
}
