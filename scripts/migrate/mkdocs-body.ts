/**
 * A MkDocs Material page in Signpost's syntax (docs/ "Authoring content"), block by block, at any depth:
 * admonitions (`!!!`, collapsible `???`/`???+`, `inline`/`inline end`) as `:::note[Title]{…}`,
 * content tabs (`=== "Label"`) as `::::tabs`, definition lists as a bold term over its definition,
 * grid cards (`<div class="grid cards" markdown>` and a list) as `::::cards`, other `markdown` divs
 * unwrapped; in each line, icon shortcodes as `:icon{…}`, attribute lists as heading ids and
 * anchors (styling left out), `++ctrl+c++` keys as `<kbd>` and `==marked==` text as `<mark>`. Code is never looked into. Whatever does not come across is noted.
 */
import { lookupIcon } from '../../server/content/markdown/icons.ts';
import { ICON_SHORTCODE, mapIcon } from './mkdocs-icons.ts';
import type { Line } from './mkdocs-snippets.ts';

export type Note = (at: number, message: string) => void;

const FENCE = /^\s*(`{3,}|~{3,})/;
const ADMONITION = /^([ \t]*)(!!!|\?\?\?\+?)[ \t]+([A-Za-z][\w-]*)((?:[ \t]+[A-Za-z][\w-]*)*)(?:[ \t]+"(.*)")?[ \t]*$/;
const TAB = /^([ \t]*)===([!+]?)[ \t]+"(.*)"[ \t]*$/;
/** mkdocstrings' and mkautodoc's `::: package.module.Name`, an API reference generated from code. */
const AUTODOC = /^([ \t]*):::[ \t]+([A-Za-z_][\w.:]*)[ \t]*$/;
const DEFINITION = /^([ \t]*):[ \t]{1,3}(\S.*)$/;
const MARKDOWN_DIV = /^([ \t]*)<div\b([^>]*)\bmarkdown\b[^>]*>[ \t]*$/;
const MARKDOWN_FIGURE = /^([ \t]*)<figure\b[^>]*\bmarkdown\b[^>]*>[ \t]*$/;
const DIV_OPEN = /<div\b/gi;
const DIV_CLOSE = /<\/div\s*>/gi;
// `.class`, `#id`, `key=value`, and the bare `data-…` names Material reads (`{ data-search-exclude }`).
const ATTR_TOKEN = String.raw`(?:[#.][\w-]+|[\w-]+=(?:"[^"]*"|'[^']*'|[^\s}"']+)|data-[\w-]+)`;
const ATTR_LIST = new RegExp(String.raw`\{:?[ \t]*(${ATTR_TOKEN}(?:[ \t]+${ATTR_TOKEN})*)[ \t]*:?\}`, 'g');
const HEADING = new RegExp(String.raw`^([ \t]*(#{1,6})[ \t]+.*?)[ \t]*\{:?[ \t]*(${ATTR_TOKEN}(?:[ \t]+${ATTR_TOKEN})*)[ \t]*:?\}[ \t]*$`);
const CODE_SPAN = /``[^\n]*?``|`[^`\n]*`/g;
/** An id Signpost takes in `## Title {#id}`. */
const HEADING_ID = /^[A-Za-z][\w.:-]*$/;

/** MkDocs' admonition types as Signpost's admonitions (or a callout of that appearance), with the title MkDocs shows. */
const OWN = new Set(['note', 'info', 'tip', 'important', 'warning', 'caution', 'danger']);
const ALIASES: Record<string, string> = { hint: 'tip', attention: 'warning' };
const APPEARANCE: Record<string, string> = {
  success: 'success', check: 'success', done: 'success', failure: 'error', fail: 'error', missing: 'error', error: 'error', bug: 'error',
};

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
const blank = (l: Line | undefined) => l !== undefined && l.text.trim() === '';

/** Width of a line's indentation, tabs to the next multiple of four. */
function indentOf(text: string): number {
  let w = 0;
  for (const c of /^[ \t]*/.exec(text)?.[0] ?? '') w = c === '\t' ? w + 4 - (w % 4) : w + 1;
  return w;
}

/** The line without `n` columns of indentation (what is left of a tab kept as spaces). */
function dedent(line: Line, n: number): Line {
  const lead = /^[ \t]*/.exec(line.text)?.[0] ?? '';
  const width = indentOf(line.text);
  return { ...line, text: ' '.repeat(Math.max(0, width - n)) + line.text.slice(lead.length) };
}

/** End (exclusive) of the block from `from`: blank lines and lines indented by `min` or more, trailing blanks left out. */
function blockEnd(lines: Line[], from: number, min: number): number {
  let end = from;
  for (let k = from; k < lines.length; k++) {
    const l = lines[k] as Line;
    if (blank(l)) continue;
    if (indentOf(l.text) >= min) end = k + 1;
    else break;
  }
  return end;
}

/** Colons for a directive holding these lines: one more than any directive inside. */
function colonsAround(lines: Line[], least = 3): number {
  return Math.max(least, ...lines.map((l) => (/^\s*(:{3,})/.exec(l.text)?.[1]?.length ?? 0) + 1));
}

function indentAll(lines: Line[], prefix: string): Line[] {
  return prefix ? lines.map((l) => (l.text.trim() === '' ? l : { ...l, text: prefix + l.text })) : lines;
}

function trimBlank(lines: Line[]): Line[] {
  let s = 0;
  let e = lines.length;
  while (s < e && blank(lines[s])) s++;
  while (e > s && blank(lines[e - 1])) e--;
  return lines.slice(s, e);
}

/** `ctrl` → `Ctrl`, `page-up` → `Page Up`, as pymdownx.keys shows them. */
const KEY_NAMES: Record<string, string> = { cmd: 'Cmd', command: 'Cmd', ctrl: 'Ctrl', control: 'Ctrl', esc: 'Esc', escape: 'Esc', del: 'Del', delete: 'Del', opt: 'Option', option: 'Option', win: 'Win', windows: 'Win' };
function keyName(key: string): string {
  return KEY_NAMES[key.toLowerCase()] ?? key.split('-').map((w) => w.length === 1 ? w.toUpperCase() : capitalise(w)).join(' ');
}

const escapeLabel = (s: string) => s.replace(/([\\[\]])/g, '\\$1');
const attrValue = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

export class MkDocsBody {
  private noted = new Set<string>();

  constructor(private readonly note: Note) {}

  /** Notes a construct once per page (the first place it is seen). */
  private once(key: string, at: number, message: string) {
    if (this.noted.has(key)) return;
    this.noted.add(key);
    this.note(at, message);
  }

  convert(lines: Line[]): Line[] {
    const out: Line[] = [];
    let fence: string | undefined;
    /** Output index where the last definition's text ended: a second `:` definition of one term follows it. */
    let definitionEnd = -1;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as Line;
      const f = FENCE.exec(line.text);
      if (fence) {
        if (f && f[1]?.[0] === fence[0] && (f[1] as string).length >= fence.length) fence = undefined;
        out.push(line);
        continue;
      }
      if (f) {
        fence = f[1];
        out.push(line);
        continue;
      }
      let m: RegExpExecArray | null;
      if ((m = ADMONITION.exec(line.text))) {
        i = this.admonition(lines, i, m, out);
        continue;
      }
      if ((m = TAB.exec(line.text))) {
        i = this.tabs(lines, i, m, out);
        continue;
      }
      if ((m = AUTODOC.exec(line.text))) {
        this.note(line.at, `autodoc \`::: ${m[2]}\` (mkdocstrings, mkautodoc) — the reference it generates from code is not carried over; its name kept as code`);
        out.push({ ...line, text: `${m[1]}\`${m[2]}\`` });
        // Its options (`:docstring:`, `options:` YAML) are the plugin's, indented under it.
        const end = blockEnd(lines, i + 1, indentOf(line.text) + 1);
        i = Math.max(i, end - 1);
        continue;
      }
      if ((m = DEFINITION.exec(line.text))) {
        const next = this.definition(lines, i, m, out, definitionEnd === out.length || (definitionEnd === out.length - 1 && blank(out[out.length - 1])));
        if (next !== undefined) {
          i = next;
          definitionEnd = out.length;
          continue;
        }
      }
      if ((m = MARKDOWN_FIGURE.exec(line.text))) {
        const next = this.figure(lines, i, m, out);
        if (next !== undefined) {
          i = next;
          continue;
        }
      }
      if ((m = MARKDOWN_DIV.exec(line.text))) {
        const next = this.markdownDiv(lines, i, m, out);
        if (next !== undefined) {
          i = next;
          continue;
        }
      }
      const text = this.inline(line.text, line.at);
      if (text !== undefined) out.push({ ...line, text });
    }
    return out;
  }

  /** `!!! type inline end "Title"` and its indented body → `:::type[Title]{…}` … `:::`. */
  private admonition(lines: Line[], i: number, m: RegExpExecArray, out: Line[]): number {
    const at = (lines[i] as Line).at;
    const indent = indentOf(m[1] as string);
    const end = blockEnd(lines, i + 1, indent + 4);
    const body = this.convert(lines.slice(i + 1, end).map((l) => dedent(l, indent + 4)));
    const type = (m[3] as string).toLowerCase();
    const modifiers = (m[4] ?? '').trim().toLowerCase().split(/\s+/);
    const own = ALIASES[type] ?? type;
    const appearance = APPEARANCE[type];
    const name = appearance ? 'callout' : OWN.has(own) ? own : 'note';
    // MkDocs shows the type as the title unless one is given ("" for none).
    const title = m[5] !== undefined ? m[5] : name === type ? undefined : capitalise(type);
    const attrs: string[] = [];
    if (appearance) attrs.push(`appearance="${appearance}"`);
    if (title === '' && name !== 'callout') attrs.push('heading=""');
    if (m[2] !== '!!!') attrs.push(m[2] === '???+' ? 'collapsible open' : 'collapsible');
    if (modifiers.includes('inline')) attrs.push(`inline="${modifiers.includes('end') ? 'end' : 'start'}"`);
    if (!OWN.has(own) && !appearance) this.once(`type:${type}`, at, `admonition type "${type}" — shown as a note titled "${title || capitalise(type)}"`);
    const prefix = ' '.repeat(indent);
    const colons = ':'.repeat(colonsAround(body));
    if (out.length > 0 && !blank(out[out.length - 1])) out.push({ text: '', at });
    out.push({ text: `${prefix}${colons}${name}${title ? `[${escapeLabel(title)}]` : ''}${attrs.length > 0 ? `{${attrs.join(' ')}}` : ''}`, at });
    out.push(...indentAll(trimBlank(body), prefix), { text: prefix + colons, at });
    return end - 1;
  }

  /** A run of `=== "Label"` tabs at one indentation → `::::tabs` with a `:::tab[Label]` each. */
  private tabs(lines: Line[], i: number, m: RegExpExecArray, out: Line[]): number {
    const at = (lines[i] as Line).at;
    const indent = indentOf(m[1] as string);
    const tabs: { label: string; body: Line[] }[] = [];
    let j = i;
    let last = i;
    for (;;) {
      const head = TAB.exec((lines[j] as Line).text) as RegExpExecArray;
      const end = blockEnd(lines, j + 1, indent + 4);
      const label = (head[3] as string).replace(ICON_SHORTCODE, '').replace(/[[\]]/g, '').trim();
      tabs.push({ label: label || `Tab ${tabs.length + 1}`, body: trimBlank(this.convert(lines.slice(j + 1, end).map((l) => dedent(l, indent + 4)))) });
      last = end - 1;
      let next = end;
      while (blank(lines[next])) next++;
      const following = next < lines.length ? TAB.exec((lines[next] as Line).text) : null;
      // `===!` starts a new group.
      if (!following || indentOf(following[1] as string) !== indent || following[2] === '!') break;
      j = next;
    }
    const inner = colonsAround(tabs.flatMap((t) => t.body));
    const prefix = ' '.repeat(indent);
    const tab = ':'.repeat(inner);
    if (out.length > 0 && !blank(out[out.length - 1])) out.push({ text: '', at });
    out.push({ text: `${prefix}${':'.repeat(inner + 1)}tabs`, at });
    for (const t of tabs) out.push({ text: `${prefix}${tab}tab[${t.label}]`, at }, ...indentAll(t.body, prefix), { text: prefix + tab, at });
    out.push({ text: `${prefix}${':'.repeat(inner + 1)}`, at });
    return last;
  }

  /**
   * `Term` then `:   Definition` (def_list): Signpost has no definition lists, so the term is a bold
   * line and the definition its own blocks under it. Undefined when the line is not a definition.
   */
  private definition(lines: Line[], i: number, m: RegExpExecArray, out: Line[], sameTerm: boolean): number | undefined {
    const at = (lines[i] as Line).at;
    const indent = indentOf(m[1] as string);
    // The term: the paragraph just before (its lines are terms), with at most one blank line between.
    let t = out.length - 1;
    if (blank(out[t])) t--;
    const termEnd = t;
    while (t >= 0 && !blank(out[t]) && indentOf((out[t] as Line).text) === indent && !/^\s*(#|:{3,}|[-*+]\s|\d+[.)]\s|```|~~~|<)/.test((out[t] as Line).text)) t--;
    const termStart = t + 1;
    if (!sameTerm && termStart > termEnd) return undefined;
    const body: Line[] = [{ ...(lines[i] as Line), text: m[2] as string }];
    let k = i + 1;
    for (; k < lines.length; k++) {
      const l = lines[k] as Line;
      if (blank(l)) body.push(l);
      else if (indentOf(l.text) >= indent + 4) body.push(dedent(l, indent + 4));
      // A lazy line continues the definition's first paragraph.
      else if (!blank(lines[k - 1]) && !DEFINITION.test(l.text) && indentOf(l.text) >= indent) body.push(dedent(l, indent));
      else break;
    }
    while (k > i + 1 && blank(lines[k - 1])) k--, body.pop();
    if (!sameTerm) {
      for (let n = termStart; n <= termEnd; n++) {
        const term = out[n] as Line;
        const text = term.text.trim();
        // Several terms of one definition: a line each, as MkDocs shows them.
        const end = n < termEnd ? '\\' : '';
        out[n] = { ...term, text: `${' '.repeat(indent)}${/^(\*\*|__).*(\*\*|__)$/.test(text) ? text : `**${text}**`}${end}` };
      }
      this.once('def_list', (out[termStart] as Line).at, 'definition list — each term is a bold line with its definition below it');
    }
    out.push({ text: '', at }, ...indentAll(trimBlank(this.convert(body)), ' '.repeat(indent)));
    return k - 1;
  }

  /** A `<div … markdown>` block: grid cards become `::::cards`; any other is unwrapped, its Markdown kept. */
  private markdownDiv(lines: Line[], i: number, m: RegExpExecArray, out: Line[]): number | undefined {
    const at = (lines[i] as Line).at;
    let depth = 0;
    let close = -1;
    for (let k = i; k < lines.length && close < 0; k++) {
      const text = (lines[k] as Line).text;
      depth += (text.match(DIV_OPEN)?.length ?? 0) - (text.match(DIV_CLOSE)?.length ?? 0);
      if (depth <= 0) close = k;
    }
    if (close < 0 || !/^\s*<\/div\s*>\s*$/.test((lines[close] as Line).text)) return undefined;
    const indent = indentOf(m[1] as string);
    const inner = trimBlank(lines.slice(i + 1, close).map((l) => dedent(l, indent)));
    const classes = /\bclass=["']([^"']*)["']/.exec(m[2] ?? '')?.[1]?.split(/\s+/) ?? [];
    const prefix = ' '.repeat(indent);
    if (out.length > 0 && !blank(out[out.length - 1])) out.push({ text: '', at });
    if (classes.includes('cards') && /^[-*+][ \t]/.test(inner[0]?.text ?? '')) {
      out.push(...indentAll(this.cards(inner), prefix));
    } else {
      this.once(`div:${classes.join('.')}`, at, `<div${classes.length > 0 ? ` class="${classes.join(' ')}"` : ''} markdown> — its content kept, the wrapper left out`);
      out.push(...indentAll(this.convert(inner), prefix));
    }
    return close;
  }

  /**
   * `<figure markdown>` holding an image and a `<figcaption>`: the image with the caption as its title,
   * which Signpost shows as its caption. Undefined (left to the HTML check) for any other figure.
   */
  private figure(lines: Line[], i: number, m: RegExpExecArray, out: Line[]): number | undefined {
    const close = lines.findIndex((l, k) => k > i && /<\/figure\s*>/i.test(l.text));
    if (close < 0 || !/^\s*<\/figure\s*>\s*$/.test((lines[close] as Line).text)) return undefined;
    const inner = lines.slice(i + 1, close).map((l) => l.text).join('\n');
    const caption = /<figcaption>([\s\S]*?)<\/figcaption>/i.exec(inner);
    const rest = inner.replace(caption?.[0] ?? '', '').trim();
    const image = /^!\[([^\]]*)\]\(\s*([^)\s]+)(?:\s+"[^"]*")?\s*\)(?:\{[^}]*\})?$/.exec(rest);
    if (!image) return undefined;
    const at = (lines[i] as Line).at;
    if (/\{[^}]*\}$/.test(rest)) this.once('image-attrs', at, `image attributes ${/\{[^}]*\}$/.exec(rest)?.[0]} — size and alignment left out`);
    const title = caption?.[1]?.replace(/\s+/g, ' ').trim().replace(/"/g, '\\"');
    if (out.length > 0 && !blank(out[out.length - 1])) out.push({ text: '', at });
    out.push({ text: `${' '.repeat(indentOf(m[1] as string))}![${image[1]}](${image[2]}${title ? ` "${title}"` : ''})`, at });
    return close;
  }

  /** The list of a grid: each item a card, its bold first line (after an icon) the title, a `---` under it dropped. */
  private cards(lines: Line[]): Line[] {
    const items: Line[][] = [];
    const rest: Line[] = [];
    for (let k = 0; k < lines.length; k++) {
      const l = lines[k] as Line;
      const item = /^[-*+]([ \t]+)(.*)$/.exec(l.text);
      if (item && rest.length === 0) {
        // As in any list: the text starts after the marker's spaces, unless there are more than four.
        const spaces = indentOf(item[1] as string);
        const content = spaces > 4 ? 2 : 1 + spaces;
        const end = blockEnd(lines, k + 1, content);
        items.push([{ ...l, text: item[2] as string }, ...lines.slice(k + 1, end).map((x) => dedent(x, content))]);
        k = end - 1;
      } else if (!blank(l)) rest.push(...lines.slice(k)), k = lines.length;
    }
    const cards = items.map((item) => this.card(trimBlank(item)));
    const inner = colonsAround(cards.flatMap((c) => c.body));
    const out: Line[] = [{ text: `${':'.repeat(inner + 1)}cards`, at: lines[0]?.at ?? 0 }];
    for (const c of cards) {
      const attrs = [`title="${attrValue(c.title)}"`, ...(c.icon ? [`icon="${c.icon}"`] : [])];
      out.push({ text: `${':'.repeat(inner)}card{${attrs.join(' ')}}`, at: c.at }, ...c.body, { text: ':'.repeat(inner), at: c.at });
    }
    out.push({ text: ':'.repeat(inner + 1), at: lines[0]?.at ?? 0 });
    if (rest.length > 0) out.push({ text: '', at: rest[0]?.at ?? 0 }, ...this.convert(rest));
    return out;
  }

  private card(lines: Line[]): { title: string; icon?: string; body: Line[]; at: number } {
    const at = lines[0]?.at ?? 0;
    const first = lines[0]?.text ?? '';
    const lead = /^((?::[a-z][\w-]*:(?:\{[^}]*\})?[ \t]*)*)/.exec(first)?.[1] ?? '';
    const head = first.slice(lead.length).trim();
    const bold = /^(?:\*\*|__)(.+?)(?:\*\*|__)$/.exec(head) ?? /^\[(?:\*\*|__)?(.+?)(?:\*\*|__)?\]\([^)\s]+\)$/.exec(head);
    // Without a bold title, the first line is the title (MkDocs shows it first, in the card's text).
    const title = (bold ? bold[1] as string : head).replace(/[*_`]/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').trim() || 'Card';
    let k = 1;
    while (blank(lines[k])) k++;
    if (/^\s*(-{3,}|\*{3,}|_{3,})\s*$/.test(lines[k]?.text ?? '')) k++;
    const body = trimBlank(this.convert(lines.slice(k)));
    const shortcode = /:(material|octicons|fontawesome|simple)-([a-z0-9][a-z0-9-]*):/.exec(lead);
    if (!shortcode) return { title, body, at };
    // A card's icon is a Lucide one; an icon Lucide lacks goes at the top of the card's text.
    const lucide = lookupIcon(shortcode[2] as string);
    if (lucide) return { title, icon: lucide.name, body, at };
    const mapped = mapIcon(shortcode[1] as string, shortcode[2] as string);
    if ('directive' in mapped) return { title, body: [{ text: mapped.directive, at }, { text: '', at }, ...body], at };
    this.once(`icon:${mapped.missing}`, at, `icon ${mapped.missing} — no equivalent icon in Signpost's icon sets; left out`);
    return { title, body, at };
  }

  /** One line of prose: heading ids, icon shortcodes, attribute lists; undefined when nothing is left of it. */
  private inline(text: string, at: number): string | undefined {
    const heading = HEADING.exec(text);
    if (heading) {
      const id = /(?:^|\s)#([\w:.-]+)/.exec(heading[3] as string)?.[1];
      const level = (heading[2] as string).length;
      if (id && level > 1 && HEADING_ID.test(id)) text = `${this.spans(heading[1] as string, at)} {#${id}}`;
      else {
        if (id && level > 1) this.once(`id:${id}`, at, `heading id #${id} — not one Signpost takes (a letter first, then letters, digits, - _ . :); the heading's own id is used`);
        text = this.spans(heading[1] as string, at);
      }
      return text;
    }
    const converted = this.spans(text, at);
    // A line that was only an attribute list (styling a block) goes with it.
    return converted.trim() === '' && text.trim() !== '' ? undefined : converted;
  }

  /** Icons and attribute lists of a line's text outside code spans. */
  private spans(text: string, at: number): string {
    let out = '';
    let from = 0;
    for (const code of [...text.matchAll(CODE_SPAN), null]) {
      const end = code ? code.index : text.length;
      out += this.prose(text.slice(from, end), at, out);
      if (code) out += code[0];
      from = end + (code?.[0].length ?? 0);
    }
    return out;
  }

  private prose(text: string, at: number, before: string): string {
    // Attribute lists first: the icons written in their place carry attributes of their own.
    const bare = text.replace(ATTR_LIST, (all, tokens: string, offset: number, whole: string) => {
      const prior = (before + whole.slice(0, offset)).trimEnd();
      const id = /(?:^|\s)#([\w:.-]+)/.exec(tokens)?.[1];
      if (/(?:^|\s)\.md-button\b/.test(tokens)) {
        this.once('md-button', at, 'button link ({ .md-button }) — kept as a plain link');
        return '';
      }
      if (id) return `:anchor{id="${attrValue(id)}"}`;
      if (/!\[[^\]]*\]\([^)]*\)$/.test(prior)) this.once('image-attrs', at, `image attributes ${all} — size and alignment left out`);
      else if (/(?:^|\s)\.annotate\b/.test(tokens)) this.once('annotate', at, 'code annotations ({ .annotate }) — the markers and their list are kept as text');
      else if (!/:[a-z][\w-]*:$/.test(prior)) this.once('attr_list', at, `attribute list ${all} — styling left out`);
      return '';
    });
    // pymdownx.keys and pymdownx.mark: the HTML they make, which bodies take as it is.
    const keyed = bare.replace(/\+\+([\w-]+(?:\+[\w-]+)*)\+\+/g, (_, keys: string) => keys.split('+').map((k) => `<kbd>${keyName(k)}</kbd>`).join('+'))
      .replace(/(^|[^=])==(?=\S)([^=\n]*?\S)==(?!=)/g, '$1<mark>$2</mark>');
    return keyed.replace(ICON_SHORTCODE, (_, set: string, name: string) => {
      const mapped = mapIcon(set, name);
      if ('directive' in mapped) return mapped.directive;
      this.once(`icon:${mapped.missing}`, at, `icon ${mapped.missing} — no equivalent icon in Signpost's icon sets; left out`);
      return '';
    });
  }
}
