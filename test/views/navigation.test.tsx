/**
 * The documentation navigation islands as the server renders them (spec §4, §9): their props blocks
 * (plain JSON, texts in the page's language), their script-free markup, and the island's list items
 * being the same markup as CardGrid and LinkList.
 */
import t from 'tap';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { CardLink, PageTreeModel, TreeNode } from '../../views/view-model.ts';
import { StringsProvider } from '../../views/i18n/catalogue.tsx';
import { CardGrid } from '../../views/parts/card-grid.tsx';
import { LinkList } from '../../views/parts/links.tsx';
import { ShowMore } from '../../views/parts/show-more.tsx';
import { PageTree } from '../../views/parts/page-tree.tsx';
import { Siblings } from '../../views/parts/siblings.tsx';
import type { PageTreeNavProps } from '../../views/islands/page-tree.tsx';
import type { ShowMoreProps } from '../../views/islands/show-more.tsx';
import type { SiblingsWindowProps } from '../../views/islands/siblings.tsx';

const render = (element: ReactElement, lang = 'en') => renderToStaticMarkup(<StringsProvider lang={lang}>{element}</StringsProvider>);
const count = (html: string, needle: string) => html.split(needle).length - 1;

/** The props block of the named island, parsed, when it hydrates, and the island's markup. */
function island<P>(html: string, name: string): { props: P; hydrate: string; markup: string } {
  const match = new RegExp(`<script type="application/json" data-island-props="${name}">([^<]*)</script><div class="island" data-island="${name}" data-hydrate="(\\w+)">`).exec(html);
  if (!match) throw new Error(`no ${name} island in ${html.slice(0, 200)}`);
  return { props: JSON.parse(match[1] ?? '') as P, hydrate: match[2] ?? '', markup: html.slice((match.index ?? 0) + match[0].length) };
}

const CARDS: CardLink[] = [
  { title: 'Billing', href: '/billing/resources/', description: 'Pay and plan', iconUrl: '/billing.svg', buttonText: 'Learn more' },
  { title: 'Training', href: 'https://training.example.test', external: true },
  { title: 'Unsafe', href: 'javascript:alert(1)' },
  { title: 'Plain', href: '/plain' },
  { title: 'Fourth <b>', href: '/fourth' },
  { title: 'Fifth', href: '/fifth', buttonText: 'View topic' },
  { title: 'Sixth', href: '/sixth', buttonText: 'View topic' },
];

t.test('ShowMore: the island lists the same cards as CardGrid, five then the rest in a disclosure', async (t) => {
  const html = render(<ShowMore items={{ kind: 'cards', cards: CARDS, headingLevel: 3 }} first={5} id="more-cards" />);
  const { props, hydrate, markup } = island<ShowMoreProps>(html, 'show-more');
  t.equal(hydrate, 'interaction', 'hydrated by its first use: the disclosure works until then');
  t.equal(props.list.items.length, 6, 'the unsafe card is left out, as CardGrid leaves it out');
  t.same(props.list.items[1], { title: 'Training', href: 'https://training.example.test', external: true });
  t.match(props, { first: 5, id: 'more-cards', summary: 'Show more', showFewer: 'Show fewer', opensInNewTab: ' (opens in a new tab)' });
  const safe = CARDS.filter((c) => !c.href.startsWith('javascript:'));
  const grid = (cards: CardLink[]) => render(<CardGrid cards={cards} headingLevel={3} />);
  t.equal(markup, `${grid(safe.slice(0, 5))}<details class="show-more"><summary>Show more</summary>${grid(safe.slice(5))}</details></div>`,
    "the first five as CardGrid renders them, the sixth in 'Show more'");
  t.notMatch(html, '<b>', 'a title is escaped in the markup and in the JSON');
  t.match(html, 'Fourth \\u003cb>');
});

t.test('ShowMore: links as LinkList renders them; a short list is the plain list, without an island', async (t) => {
  const links = [
    { label: 'One', href: '/one' }, { label: 'Two', href: 'https://elsewhere.example.test/two' }, { label: 'Bad', href: 'javascript:void 0' },
    { label: 'Four', href: '/four' }, { label: 'Five', href: '/five' }, { label: 'Six', href: '/six' },
  ];
  const html = render(<ShowMore items={{ kind: 'links', links }} first={5} id="doc-list-1" summary={(n) => `Show ${n} more`} />);
  const { props, markup } = island<ShowMoreProps>(html, 'show-more');
  t.equal(props.summary, 'Show 1 more', 'the summary is computed on the server');
  t.same(props.list.items[2], { label: 'Bad', external: false }, 'an unsafe link has no href');
  const list = (l: typeof links) => render(<LinkList links={l} />);
  t.equal(markup, `${list(links.slice(0, 5))}<details class="show-more"><summary>Show 1 more</summary>${list(links.slice(5))}</details></div>`);

  const short = render(<ShowMore items={{ kind: 'links', links: links.slice(0, 5) }} first={5} id="doc-list-2" />);
  t.equal(short, list(links.slice(0, 5)), 'five links: the plain list');
  const cards = render(<ShowMore items={{ kind: 'cards', cards: CARDS.slice(0, 6), headingLevel: 2 }} first={5} id="x" />);
  t.notMatch(cards, 'data-island', 'five safe cards of six: no island');
});

t.test('ShowMore in Japanese: the texts of the props are the page language', async (t) => {
  const html = render(<ShowMore items={{ kind: 'cards', cards: CARDS, headingLevel: 2 }} first={5} id="ja" />, 'ja');
  const { props } = island<ShowMoreProps>(html, 'show-more');
  t.equal(props.summary, 'さらに表示');
  t.equal(props.showFewer, '表示を減らす');
});

const node = (id: string, extra: Partial<TreeNode> = {}): TreeNode => ({ id, title: `Title ${id}`, href: `/${id}`, current: false, open: false, children: [], ...extra });
const TREE: PageTreeModel = {
  title: 'Acme Cloud', href: '/docs',
  nodes: [
    node('a', { open: true, more: { href: '/a', count: 40, title: 'A' }, children: [
      node('a1', { open: true, children: [node('a1x', { current: true, children: [node('deep')] })] }),
    ] }),
    node('b'),
  ],
  more: { href: '/docs', count: 30, title: 'Acme Cloud' },
};

t.test('PageTree: its props carry three levels, the open flags and the texts; the markup is the script-free tree', async (t) => {
  const html = render(<PageTree tree={TREE} />);
  const { props, hydrate, markup } = island<PageTreeNavProps>(html, 'page-tree');
  t.equal(hydrate, 'interaction', 'hydrated by its first use (or at once for a collapsed sidebar, in the browser)');
  t.equal(props.label, 'Documentation');
  t.same(props.all, { href: '/docs', label: 'All 30 pages in Acme Cloud' });
  const [a, b] = props.nodes;
  t.match(a, { title: 'Title a', open: true, toggleLabel: 'Pages in Title a', all: { href: '/a', label: 'All 40 pages in A' } });
  t.same(a?.children[0]?.children[0]?.children, [], 'nothing below the third level');
  t.equal(a?.children[0]?.children[0]?.current, true);
  t.same(b?.children, []);
  t.notOk(b && 'all' in b, 'no list link without a list');
  t.match(markup, /^<details class="page-tree-disclosure"><summary class="page-tree-toggle">Documentation<\/summary><nav aria-label="Documentation" class="page-tree">/);
  t.equal(count(markup, '<details open=""'), 2, 'the open branches');
  t.notMatch(markup, 'Title deep');
  t.notMatch(markup, '<button', 'no script-only control before hydration');
  t.notMatch(markup, ' hidden', 'nothing hidden by attribute');

  const ja = island<PageTreeNavProps>(render(<PageTree tree={TREE} />, 'ja'), 'page-tree').props;
  t.equal(ja.label, 'ドキュメント');
  t.equal(ja.nodes[0]?.toggleLabel, 'Title a のページ');
});

t.test('Siblings: the window is computed on the server; a list that fits needs no island', async (t) => {
  const items = Array.from({ length: 9 }, (_, i) => ({ title: `Page ${i + 1}`, href: `/p${i + 1}`, current: i === 5 }));
  const html = render(<Siblings model={{ heading: 'In this section', mode: 'window', items, more: { href: '/all', count: 20, title: 'Section' } }} />);
  const { props, hydrate, markup } = island<SiblingsWindowProps>(html, 'siblings');
  t.equal(hydrate, 'interaction', 'hydrated by its first use');
  t.match(props, { start: 3, end: 8, moreAbove: { label: 'Show 3 more', hint: ' pages above' }, moreBelow: { label: 'Show 1 more', hint: ' pages below' } });
  t.same(props.all, { href: '/all', label: 'All 20 pages in Section' });
  t.equal(props.items.length, 9);
  t.match(markup, '<p class="siblings-all"><a href="/all">All 20 pages in Section</a></p>');
  t.notMatch(markup, '<button');

  const short = render(<Siblings model={{ heading: 'In this section', mode: 'window', items: items.slice(0, 5) }} />);
  t.notMatch(short, 'data-island');
  t.equal(count(short, '<li'), 5);
});
