/**
 * The body-tabs island (views/islands/body-tabs.tsx) as the server renders it: sections headed by their
 * labels holding the panels it is given, no tab markup before hydration, and without panels (the
 * browser's render) an empty body the hydration leaves as the server wrote it. Groups share a choice by
 * their set of labels.
 */
import t from 'tap';
import { renderToStaticMarkup } from 'react-dom/server';
import { BodyTabs, tabGroupKey } from '../../views/islands/body-tabs.tsx';

const tabs = [{ id: 'macos', label: 'macOS' }, { id: 'linux', label: 'Linux' }];

t.test('the server form: sections headed by their labels, the panels inside', async (t) => {
  const html = renderToStaticMarkup(<BodyTabs tabs={tabs} level={3} panels={[<p key="a">Use Homebrew.</p>, <p key="b">Use the package.</p>]} />);
  t.equal(html, '<div class="tabs" data-tabs="">'
    + '<section class="tab-panel" id="tabs-panel-macos" aria-labelledby="macos"><h3 id="macos" class="tab-label">macOS</h3><div class="tab-body"><p>Use Homebrew.</p></div></section>'
    + '<section class="tab-panel" id="tabs-panel-linux" aria-labelledby="linux"><h3 id="linux" class="tab-label">Linux</h3><div class="tab-body"><p>Use the package.</p></div></section>'
    + '</div>');
  t.notMatch(html, /role="tab/, 'no tab roles before hydration');
});

t.test('the browser form renders the same shell with empty bodies, and the level is bounded', async (t) => {
  const html = renderToStaticMarkup(<BodyTabs tabs={tabs} level={9} />);
  t.match(html, '<h6 id="macos" class="tab-label">macOS</h6><div class="tab-body"></div>');
  t.match(renderToStaticMarkup(<BodyTabs tabs={tabs} level={1} />), '<h2 id="macos"');
});

t.test('groups with the same labels in any order share a key; others do not', async (t) => {
  t.equal(tabGroupKey(tabs), tabGroupKey([{ id: 'linux-1', label: 'Linux' }, { id: 'macos-1', label: 'macOS' }]));
  t.not(tabGroupKey(tabs), tabGroupKey([{ id: 'macos', label: 'macOS' }, { id: 'windows', label: 'Windows' }]));
});
