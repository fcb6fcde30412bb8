import t from 'tap';
import { build, SAMPLE_CONTENT } from '../helpers/build.ts';

/** The Japanese pages of the sample content (every entry with language: ja-JP). */
const JAPANESE_PAGES = [
  '/ja', '/ja/contact', '/ja/legal/accessibility', '/ja/legal/privacy-policy', '/ja/trust/security',
  '/keyward-cloud/docs/japanese', '/keyward-cloud/docs/set-up-saml-sso-ja', '/keyward-cloud/docs/provision-users-with-scim-ja',
];

/** Fixed English words of the chrome and common parts; none may show on a Japanese page's chrome. */
const ENGLISH_CHROME = [
  'Skip to main content', 'Products', 'Get started', 'Documentation', 'Resources', 'Contact', 'Search', 'Sign in', 'Log in',
  'opens in a new tab', 'See all other products', 'Legal', 'Accessibility', 'Privacy', 'Terms of service', 'Security and data protection',
  'Was this helpful', 'Yes', 'Support', 'Not finding the help', 'Ask the community', 'On this page', 'Updated on', 'Breadcrumbs',
  'View topic', 'Show more', 'Browse by product', 'Browse resources',
];

const element = (html: string, open: RegExp) => {
  const m = open.exec(html);
  if (!m) return '';
  const tag = /^<(\w+)/.exec(m[0])?.[1] ?? '';
  return html.slice(m.index, html.indexOf(`</${tag}>`, m.index) + tag.length + 3);
};
/** Visible text plus the accessible names and placeholders a screen reader or a visitor meets. */
const wordsOf = (html: string) => [
  html.replace(/<[^>]+>/g, ' '),
  ...[...html.matchAll(/(?:aria-label|placeholder|data-more-text|data-less-text)="([^"]*)"/g)].map((m) => m[1]),
].join(' ').replace(/&#x27;/g, "'").replace(/\s+/g, ' ');

/** The chrome and common parts of a page, without content (titles, bodies, product names in menus' cards). */
function chromeWords(html: string): string {
  const header = element(html, /<header[^>]*>/)
    // Menu cards and product names come from content, in English for every language.
    .replace(/<ul class="(?:menu-cards|product-list|menu-links|waffle-grid)"[\s\S]*?<\/ul>/g, '')
    .replace(/<p class="menu-label"[^>]*>[^<]*<\/p>/g, '')
    .replace(/<li><a class="header-link" href="https?:[^"]*">[^<]*<\/a><\/li>/g, '')
    .replace(/<summary>(?!<)[^<]*<\/summary>(?=<div class="menu-panel"><ul class="menu-cards"><li><a href="https:\/\/learn)/g, '');
  const parts = [
    header,
    element(html, /<footer[^>]*>/),
    element(html, /<a class="skip-link"[^>]*>/),
    element(html, /<section id="feedback"[^>]*>/),
    element(html, /<section class="contact-block"[^>]*>/),
    element(html, /<nav aria-label="[^"]*" class="breadcrumbs"[^>]*>/),
    element(html, /<nav class="on-this-page"[^>]*>/).replace(/<ul>[\s\S]*<\/ul>/, ''),
    element(html, /<p class="updated"[^>]*>/),
    element(html, /<p class="community-link"[^>]*>/),
  ];
  // The site name comes from content ('Fernhollow Support' in every language).
  return wordsOf(parts.join(' ')).replaceAll('Fernhollow Support', '');
}

t.test('Japanese pages render the chrome in Japanese', async (t) => {
  const app = await build(t, { contentDir: SAMPLE_CONTENT });

  for (const path of JAPANESE_PAGES) {
    const res = await app.inject(path);
    t.equal(res.statusCode, 200, `${path} answers`);
    const html = res.body;
    t.match(html, /^<!doctype html><html lang="ja">/, `${path}: lang="ja"`);
    t.match(html, '<a class="skip-link" href="#maincontent">メインコンテンツにスキップ</a>', `${path}: skip link`);
    const header = element(html, /<header[^>]*>/);
    for (const word of ['>お問い合わせ</a>', '<span>検索</span>', '>ログイン</a>', '(新しいタブで開きます)']) t.match(header, word, `${path}: header has ${word}`);
    const footer = element(html, /<footer[^>]*>/);
    t.match(footer, '<nav aria-label="法的情報"', `${path}: footer`);
    for (const label of ['アクセシビリティ', 'プライバシーポリシー', '利用規約', 'セキュリティとデータ保護']) t.match(footer, `>${label}</a>`, `${path}: footer link ${label}`);
    const words = chromeWords(html);
    for (const english of ENGLISH_CHROME) t.notMatch(words, english, `${path}: no '${english}' in the chrome`);
  }

  const topic = (await app.inject('/keyward-cloud/docs/set-up-saml-sso-ja')).body;
  t.match(element(topic, /<section id="feedback"[^>]*>/), '>この記事は役に立ちましたか?</h2>', 'feedback asks in Japanese');
  t.match(element(topic, /<section id="feedback"[^>]*>/), '>はい</button>');
  t.match(element(topic, /<section class="contact-block"[^>]*>/), '<h2>お探しの情報が見つかりませんか?</h2>');
  t.match(topic, /<p class="updated">2026年5月28日 に更新<\/p>/, 'the date in Japanese');
  t.match(topic, '<p class="community-link"><a href="');
  t.match(topic, '>コミュニティに質問する</a></p>');
  t.match(topic, '<ol><li><a href="/ja" title="サポート">サポート</a></li>', 'the first crumb is the Japanese support home');

  const home = (await app.inject('/ja')).body;
  t.match(home, 'placeholder="お探しの情報を入力してください"');
  t.match(home, '>製品から探す</h2>');

  const contact = (await app.inject('/ja/contact')).body;
  t.match(contact, 'メールアドレス', 'the form speaks Japanese: its labels come from the form file');
  t.match(contact, '>リクエストを送信</button>');
});

t.test('English pages keep English chrome and footer labels', async (t) => {
  const app = await build(t, { contentDir: SAMPLE_CONTENT });
  for (const path of ['/', '/contact', '/legal/accessibility', '/keyward-cloud/docs/set-up-saml-sso']) {
    const res = await app.inject(path);
    t.equal(res.statusCode, 200, `${path} answers`);
    t.match(res.body, /^<!doctype html><html lang="en">/);
    const footer = element(res.body, /<footer[^>]*>/);
    t.match(footer, '<nav aria-label="Legal"');
    t.match(footer, '>Accessibility</a>');
    t.notMatch(footer, /[\u3040-\u30ff]/, `${path}: no Japanese in the footer`);
    t.match(element(res.body, /<header[^>]*>/), '>Sign in</a>');
    if (path.includes('/docs/')) t.match(res.body, '<ol><li><a href="/" title="Support">Support</a></li>');
  }
});
