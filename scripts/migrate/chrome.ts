/**
 * What a migrated tree needs around its documentation to be a working help centre at once: the logo
 * (the source site's, else one made from the site's initials), the header that shows it and lists the
 * product, a home page at `/`, the product's landing page at `/{product}`, and the contact and
 * report-a-problem forms every page links to, with the contact page. Wording is generic: the vendor
 * changes it like any other content.
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, normalize, relative, sep } from 'node:path';
import { parse, parseDocument, stringify } from 'yaml';
import { isCall, readJsConfig, unwrapCall } from './js-config.ts';
import type { SourceSite } from './model.ts';
import type { MigrateResult } from './tree.ts';

/** Image types the content tree serves (server/content/files.ts) that a logo can be. */
const LOGO_TYPES = new Set(['.svg', '.png', '.jpg', '.jpeg', '.gif', '.webp', '.avif']);

/**
 * Dark enough for white initials to read at WCAG AA (each at least 4.5:1 against #ffffff); one is picked
 * from the site's name, so a site keeps its colour when migrated again.
 */
export const LOGO_COLOURS = ['#1f5fbf', '#0f7a5c', '#8a3ffc', '#b3261e', '#006d8f', '#5c4d00', '#a3366b', '#3d5a80'];

export interface LogoSource {
  /** Absolute path of the source's logo file. */
  file: string;
  /** Where the config names it, for the report. */
  from: string;
}

/** The logo the tool's config names, when it is a file of the site of a type the tree can serve. */
export async function sourceLogo(site: SourceSite, src: string): Promise<LogoSource | { missing: string; from: string } | undefined> {
  let named: { path: string; base: string; from: string } | undefined;
  if (site.tool === 'docusaurus') {
    const configName = ['docusaurus.config.js', 'docusaurus.config.mjs', 'docusaurus.config.ts'].find((f) => existsSync(join(src, f)));
    if (!configName) return undefined;
    const config = (unwrapCall(readJsConfig(await readFile(join(src, configName), 'utf8'), configName).value) ?? {}) as Record<string, unknown>;
    const logo = dig(config, ['themeConfig', 'navbar', 'logo', 'src']);
    const statics = Array.isArray(config.staticDirectories) ? config.staticDirectories.filter((d): d is string => typeof d === 'string') : ['static'];
    if (typeof logo === 'string') {
      // Docusaurus serves the static folders at the site's root: the first that has the file.
      const base = statics.find((d) => existsSync(join(src, d, logo.replace(/^\/+/, '')))) ?? statics[0] ?? 'static';
      named = { path: logo.replace(/^\/+/, ''), base: join(src, base), from: `${configName} themeConfig.navbar.logo.src` };
    }
  } else if (site.tool === 'mkdocs') {
    const config = (parseDocument(await readFile(join(src, 'mkdocs.yml'), 'utf8'), { customTags: [], logLevel: 'silent' }).toJS() ?? {}) as Record<string, unknown>;
    const logo = dig(config, ['theme', 'logo']);
    if (typeof logo === 'string') named = { path: logo, base: site.docsDir, from: 'mkdocs.yml theme.logo' };
  } else {
    const configName = ['astro.config.mjs', 'astro.config.js', 'astro.config.ts'].find((f) => existsSync(join(src, f)));
    if (!configName) return undefined;
    const config = (unwrapCall(readJsConfig(await readFile(join(src, configName), 'utf8'), configName).value) ?? {}) as Record<string, unknown>;
    const integrations = Array.isArray(config.integrations) ? config.integrations : [];
    const starlight = integrations.find((i) => isCall(i, 'starlight'));
    const options = starlight && isCall(starlight) ? (starlight.args[0] ?? {}) as Record<string, unknown> : {};
    const logo = dig(options, ['logo', 'src']) ?? dig(options, ['logo', 'light']);
    if (typeof logo === 'string') named = { path: logo, base: src, from: `${configName} starlight logo.src` };
  }
  if (!named) return undefined;
  if (/^[a-z]+:/i.test(named.path)) return { missing: `${named.path} is not a file of the site`, from: named.from };
  const file = normalize(join(named.base, named.path));
  const inside = relative(src, file);
  if (inside.startsWith(`..${sep}`) || isAbsolute(inside)) return { missing: `${named.path} is outside the site`, from: named.from };
  if (!LOGO_TYPES.has(extname(file).toLowerCase())) return { missing: `${named.path} is not an image type Signpost serves (${[...LOGO_TYPES].join(' ')})`, from: named.from };
  if (!existsSync(file)) return { missing: `${named.path} does not exist`, from: named.from };
  return { file, from: named.from };
}

function dig(value: unknown, path: string[]): unknown {
  let at = value;
  for (const key of path) at = at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;
  return at;
}

/** Up to two initials of a name ('Lantern Fish' → 'LF', 'lanternfish' → 'L'). */
export function initialsOf(name: string): string {
  const words = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').match(/\p{L}[\p{L}\p{N}]*|\p{N}+/gu) ?? [];
  return (words.length === 0 ? '?' : words.slice(0, 2).map((w) => [...w][0] ?? '').join('')).toUpperCase();
}

/** A square logo of the site's initials on a colour of its name: an image named by the site's name. */
export function generatedLogo(name: string): string {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  const colour = LOGO_COLOURS[hash % LOGO_COLOURS.length] as string;
  const initials = initialsOf(name);
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64" role="img" aria-labelledby="logo-title">
  <title id="logo-title">${escape(name)}</title>
  <rect width="64" height="64" rx="12" fill="${colour}"/>
  <text x="32" y="33" text-anchor="middle" dominant-baseline="central" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="${initials.length > 1 ? 26 : 32}" font-weight="700" fill="#ffffff">${escape(initials)}</text>
</svg>
`;
}

/** The forms the chrome links to: copied in shape from a working site, in words any vendor can keep. */
export function contactForm(): Record<string, unknown> {
  return {
    id: 'contact-form', title: 'Contact support', intro: 'Fields marked required must be filled in. We answer by e-mail.',
    subjectField: 'subject', submitLabel: 'Send request',
    fields: [
      { name: 'email', type: 'email', audience: 'anonymous', label: 'Your e-mail address', help: 'We send the answer to this address.', required: true, maxLength: 254 },
      { name: 'name', type: 'text', audience: 'anonymous', label: 'Your name', maxLength: 120 },
      { name: 'product', type: 'product', label: 'Product', required: true },
      { name: 'subject', type: 'text', label: 'Summary', help: 'One line about what you need.', required: true, minLength: 5, maxLength: 150 },
      { name: 'description', type: 'longText', label: 'What is happening?', help: 'What you did, what you expected and what happened instead.', required: true, minLength: 20, maxLength: 10000 },
    ],
  };
}

export function reportProblemForm(): Record<string, unknown> {
  return {
    id: 'report-problem-form', title: 'Report a problem with this page', submitLabel: 'Send report',
    fields: [
      { name: 'email', type: 'email', audience: 'anonymous', label: 'Your e-mail address', help: 'Only if you would like an answer.', maxLength: 254 },
      {
        name: 'problem', type: 'select', label: 'What is wrong?', required: true,
        options: [
          { value: 'broken-link', label: 'A link or image is broken' }, { value: 'out-of-date', label: 'It is out of date' },
          { value: 'wrong', label: 'Something is wrong' }, { value: 'other', label: 'Something else' },
        ],
      },
      { name: 'details', type: 'longText', label: 'Details', required: true, minLength: 10, maxLength: 5000 },
    ],
  };
}

/** Adds the chrome to a tree writeTree wrote in `out`; its files join the result's, and the report says what was made. */
export async function writeChrome(site: SourceSite, src: string, out: string, result: MigrateResult): Promise<void> {
  const { product, notes } = result;
  const yaml = (value: Record<string, unknown>) => stringify(value, { lineWidth: 0 });
  const write = async (path: string, text: string | Buffer) => {
    await mkdir(dirname(join(out, path)), { recursive: true });
    await writeFile(join(out, path), text);
    if (!result.files.includes(path)) result.files.push(path);
  };
  const siteNotes: string[] = [];

  // The logo: the source's own, else the site's initials.
  const found = await sourceLogo(site, src);
  let logo: string;
  if (found && 'file' in found) {
    logo = `assets/brand/logo${extname(found.file).toLowerCase()}`;
    await mkdir(join(out, 'assets/brand'), { recursive: true });
    await copyFile(found.file, join(out, logo));
    if (!result.files.includes(logo)) result.files.push(logo);
    siteNotes.push(`logo: the site's own (${found.from}), copied to ${logo}`);
  } else {
    logo = 'assets/brand/logo.svg';
    await write(logo, generatedLogo(site.name));
    siteNotes.push(found ? `logo: ${found.from} names ${found.missing}: ${logo} is made from the site's initials instead; replace it with yours`
      : `logo: none in the site's config: ${logo} is made from the site's initials; replace it with yours`);
  }
  const logoUrl = `/${logo}`;

  const description = site.description?.trim() || `Documentation for ${site.name}.`;
  // The players and pages the bodies embed, which writeTree allowed by name, stay allowed.
  const written = parse(await readFile(join(out, 'site.yaml'), 'utf8').catch(() => '')) as Record<string, unknown> | null;
  const hosts = Object.fromEntries((['videoHosts', 'embedHosts'] as const).flatMap((key) => (written?.[key] ? [[key, written[key]]] : [])));
  await write('site.yaml', yaml({
    id: 'site', siteName: site.name, brand: site.name, legalName: site.name, publisher: site.name, language: 'en-US', logo: logoUrl,
    ...(logo.endsWith('.svg') || logo.endsWith('.png') ? { favicon: logoUrl } : {}),
    moreWaysToGetHelp: [{ label: 'Contact support', href: '/contact' }], ...hosts,
  }));
  siteNotes.push('brand, legalName and publisher: the site name; change them to yours');

  // The product gets a landing page (the header and breadcrumbs link /{product}).
  const productFile = `products/${product}.yaml`;
  const productFields = parse(await readFile(join(out, productFile), 'utf8')) as Record<string, unknown>;
  await write(productFile, yaml({ ...productFields, productBlurb: description, hasProductLandingPage: true }));
  const docsPage = parse(await readFile(join(out, `pages/${product}-docs.yaml`), 'utf8')) as { collections?: string[] };
  await write(`pages/${product}-landing.yaml`, yaml({
    id: `${product}-landing`, pageType: 'productLanding', title: `${site.name} help`, tagline: description, context: product,
    metaDescription: `Help for ${site.name}: documentation and support requests.`.slice(0, 300), collections: docsPage.collections ?? [],
  }));

  await write('header.yaml', yaml({
    id: 'header', logo: { v1: { url: logoUrl } }, cloudProducts: [{ product }], serverProducts: [], resources: [], guides: [],
    documentation: [{ id: `doc-${product}`, title: site.name, url: `/${product}/docs`, description }],
  }));
  await write('pages/home.yaml', yaml({
    id: 'home', pageType: 'home', title: `${site.name} help`, tagline: description,
    metaDescription: `Documentation and help for ${site.name}.`.slice(0, 300),
  }));
  await write('forms/contact.yaml', yaml(contactForm()));
  await write('forms/report-problem.yaml', yaml(reportProblemForm()));
  await write('pages/contact.yaml', yaml({
    id: 'contact', pageType: 'contact', title: 'Contact support', tagline: 'Tell us what is happening and we will answer by e-mail.',
    metaDescription: `Send a support request about ${site.name}.`.slice(0, 300), form: 'contact-form',
  }));
  // Japanese pages (tree.ts makes ja translations ja-JP topics) link their locale's home and contact page.
  const japanese = site.translations.some((t) => /^ja([-_]|$)/i.test(t.locale));
  if (japanese) {
    await write('pages/home-ja.yaml', yaml({
      id: 'home-ja', pageType: 'home', language: 'ja-JP', path: '/ja', title: `${site.name} ヘルプ`,
      tagline: `${site.name} のドキュメントとサポート。`, metaDescription: `${site.name} のドキュメントとヘルプ。`.slice(0, 300),
    }));
    await write('pages/contact-ja.yaml', yaml({
      id: 'contact-ja', pageType: 'contact', language: 'ja-JP', path: '/ja/contact', title: 'サポートへのお問い合わせ',
      tagline: 'ご用件をお知らせください。メールでお答えします。', metaDescription: `${site.name} についてのサポートリクエストを送信します。`.slice(0, 300), form: 'contact-form',
    }));
  }
  notes.set('site.yaml', siteNotes);
  notes.set('pages/home.yaml', [`written: a home page, the product landing page, the contact page and its form, and the report-a-problem form${japanese ? ', and the Japanese home and contact page' : ''}, in generic words; change them to yours`]);
}
