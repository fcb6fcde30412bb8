import t from 'tap';
import { renderToStaticMarkup } from 'react-dom/server';
import type { ReactElement } from 'react';
import { en } from '../../views/i18n/en.ts';
import { ja } from '../../views/i18n/ja.ts';
import { StringsProvider, stringsFor } from '../../views/i18n/catalogue.tsx';
import { Document } from '../../views/layout/document.tsx';
import { FeedbackForm } from '../../views/parts/feedback-form.tsx';
import { ContactBlock } from '../../views/parts/contact-block.tsx';
import { TopicPage } from '../../views/pages/topic-page.tsx';
import { ANONYMOUS, type FeedbackModel, type TopicPageModel } from '../../views/view-model.ts';
import { chromeFixture, CONTACT_FIXTURE } from '../helpers/chrome.ts';

/**
 * Keys whose Japanese text is deliberately the English one: product and platform names stay in English
 * on Japanese pages, and 'Data Center {version}' names the product and its version.
 */
const LOANWORDS = ['header.cloud', 'header.dataCenter', 'deployment.cloud', 'deployment.dataCenter', 'topic.dataCenterVersion'];

/** Every leaf of a catalogue by dotted path; a function leaf is called with sample values. */
function leaves(catalogue: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(catalogue)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else if (typeof value === 'function') out.set(path, String((value as (...a: unknown[]) => unknown)(...Array.from({ length: value.length }, () => 'X3'))));
    else if (value && typeof value === 'object') for (const [k, v] of leaves(value, path)) out.set(k, v);
    else out.set(path, `<${typeof value}>`);
  }
  return out;
}

t.test('the Japanese catalogue has every English key, non-empty and translated (loanwords excepted)', async (t) => {
  const english = leaves(en);
  const japanese = leaves(ja);
  t.same([...japanese.keys()].sort(), [...english.keys()].sort(), 'the same keys');
  t.ok(english.size > 80, `a real catalogue (${english.size} strings)`);
  for (const [key, text] of japanese) {
    t.ok(text.trim().length > 0, `${key} is not empty`);
    if (LOANWORDS.includes(key)) t.equal(text, english.get(key), `${key} is a deliberate loanword`);
    else t.not(text, english.get(key), `${key} is translated`);
  }
  for (const [key, text] of english) t.ok(text.trim().length > 0, `en ${key} is not empty`);
});

t.test('the catalogue is chosen by the page language; English otherwise', async (t) => {
  t.equal(stringsFor('ja'), ja);
  t.equal(stringsFor('en'), en);
  t.equal(stringsFor('fr'), en);
});

const inLang = (lang: string, view: ReactElement) => renderToStaticMarkup(<StringsProvider lang={lang}>{view}</StringsProvider>);
// An island's JSON props block is data, not text on the page.
const textOf = (html: string) => html.replace(/<script type="application\/json"[^>]*>.*?<\/script>/g, ' ').replace(/<[^>]+>/g, ' ').replaceAll('&#x27;', "'").replace(/\s+/g, ' ').trim();
const element = (html: string, open: RegExp) => {
  const m = open.exec(html);
  if (!m) return '';
  const tag = /^<(\w+)/.exec(m[0])?.[1] ?? '';
  return html.slice(m.index, html.indexOf(`</${tag}>`, m.index) + tag.length + 3);
};

const feedback = (state: FeedbackModel['state']): FeedbackModel => ({ action: '/feedback', entryId: 'e1', returnTo: '/x', csrfToken: 'tok', state });

t.test('feedback in English and Japanese (spec §8 reasons)', async (t) => {
  t.match(inLang('en', <FeedbackForm feedback={feedback('ask')} />), />Was this helpful\?<\/h2>.*>Yes<\/button>.*>No<\/button>/);
  t.match(inLang('ja', <FeedbackForm feedback={feedback('ask')} />), />この記事は役に立ちましたか\?<\/h2>.*>はい<\/button>.*>いいえ<\/button>/);
  const reasonsEn = textOf(inLang('en', <FeedbackForm feedback={feedback('reasons')} />));
  for (const r of ["It wasn't accurate", "It wasn't clear", "It wasn't relevant", 'What went wrong?', 'Send']) t.match(reasonsEn, r);
  const reasonsJa = textOf(inLang('ja', <FeedbackForm feedback={feedback('reasons')} />));
  for (const r of ['正確ではなかった', 'わかりにくかった', '関連がなかった', 'どのような問題がありましたか?', '送信']) t.match(reasonsJa, r);
  t.notMatch(reasonsJa, /[A-Za-z]{3,}/, 'no English words in the Japanese reasons');
  t.match(inLang('ja', <FeedbackForm feedback={feedback('thanks')} />), 'フィードバックをお寄せいただきありがとうございます。');
  t.match(renderToStaticMarkup(<FeedbackForm feedback={feedback('thanks')} />), 'Thanks for your feedback.', 'English without a provider');
});

t.test('contact block in English and Japanese, anonymous and signed in', async (t) => {
  t.equal(textOf(inLang('en', <ContactBlock contact={CONTACT_FIXTURE} />)), 'Not finding the help you need? Log in to contact support Ask the community');
  t.equal(textOf(inLang('ja', <ContactBlock contact={CONTACT_FIXTURE} />)), 'お探しの情報が見つかりませんか? ログインしてサポートに問い合わせる コミュニティに質問する');
  t.equal(textOf(inLang('ja', <ContactBlock contact={{ ...CONTACT_FIXTURE, signedIn: true }} />)), 'お探しの情報が見つかりませんか? サポートに問い合わせる コミュニティに質問する');
});

/** Fixed English words of the chrome that must not show on a Japanese page. */
const ENGLISH_CHROME = [
  'Skip to main content', 'Products', 'Contact', 'Search', 'Sign in', 'Log in', 'opens in a new tab', 'Legal',
  'Was this helpful', 'Not finding the help', 'Ask the community', 'On this page', 'Updated on', 'Breadcrumbs', 'Documentation',
];

function topicModel(lang: 'en' | 'ja'): TopicPageModel {
  const ja = lang === 'ja';
  return {
    chrome: chromeFixture({
      lang, localePrefix: ja ? '/ja' : '', visitor: ANONYMOUS,
      footerLinks: [{ label: ja ? 'アクセシビリティ' : 'Accessibility', href: `${ja ? '/ja' : ''}/legal/accessibility` }],
    }),
    breadcrumbs: [{ label: 'Keyward Cloud', href: '/keyward-cloud/docs' }],
    tree: { title: 'Keyward Cloud', href: '/keyward-cloud/docs', nodes: [{ id: 'a', title: 'SSO', href: '/a', current: true, open: true, children: [{ id: 'b', title: 'SAML', href: '/b', current: false, open: false, children: [] }] }] },
    deploymentSelector: null, notice: null, title: 'SAML SSO', version: null, featuredVideo: null, body: null,
    toc: [{ id: 'one', text: 'One', level: 2 }, { id: 'two', text: 'Two', level: 2 }],
    lastPublished: '2026-03-05T10:00:00Z', feedback: feedback('ask'), contact: CONTACT_FIXTURE, exploreMore: [],
    siblings: null, communityHref: 'https://community.example.test', upNext: null,
  };
}

t.test('a Japanese topic page: header, footer, feedback, contact, tree and date in Japanese', async (t) => {
  const html = renderToStaticMarkup(<TopicPage {...topicModel('ja')} />);
  t.match(html, /^<html lang="ja">/);
  const header = element(html, /<header[^>]*>/);
  for (const word of ['お問い合わせ', '検索', 'ログイン', '(新しいタブで開きます)', 'aria-label="メイン"']) t.match(header, word);
  t.match(html, '<a class="skip-link" href="#maincontent">メインコンテンツにスキップ</a>');
  t.match(element(html, /<footer[^>]*>/), '<nav aria-label="法的情報"');
  t.match(html, '<nav aria-label="パンくずリスト" class="breadcrumbs">');
  t.match(html, '<nav aria-label="ドキュメント" class="page-tree"');
  t.match(html, 'SSO のページ');
  t.match(html, '<p class="updated">2026年3月5日 に更新</p>', 'the date formatted for ja-JP');
  t.match(html, '>このページの内容</h2>');
  const text = `${textOf(html)} ${[...html.matchAll(/aria-label="([^"]+)"/g)].map((m) => m[1]).join(' ')}`;
  for (const word of ENGLISH_CHROME) t.notMatch(text, word, `no '${word}'`);
});

t.test('the English topic page keeps its English words', async (t) => {
  const html = renderToStaticMarkup(<TopicPage {...topicModel('en')} />);
  t.match(html, /^<html lang="en">/);
  t.match(html, '<p class="updated">Updated on March 5, 2026</p>');
  const text = textOf(html);
  for (const word of ['Skip to main content', 'Products', 'Contact', 'Search', 'Sign in', 'Was this helpful', 'Not finding the help', 'On this page']) t.match(text, word);
});

t.test('the Document alone renders the chrome in the page language', async (t) => {
  const en = renderToStaticMarkup(<Document chrome={chromeFixture()}><p>x</p></Document>);
  const ja = renderToStaticMarkup(<Document chrome={chromeFixture({ lang: 'ja', localePrefix: '/ja', preview: true })}><p>x</p></Document>);
  t.match(en, '>Sign in</a>');
  t.match(ja, '>ログイン</a>');
  t.match(ja, 'role="status">プレビューモード</div>');
});
