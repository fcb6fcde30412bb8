import t from 'tap';
import { InMemoryProvider } from '@openfeature/server-sdk';
import { build } from '../helpers/build.ts';
import { summaryPropsOf } from '../../server/assistant/widget.ts';
import { ADA, SESSION_SECRET, sealed } from '../identity/helpers.ts';

/** The agent flag and the AI summary experiment on for ADA's account alone. */
const forAda = { variants: { on: true, off: false }, defaultVariant: 'off', disabled: false,
  contextEvaluator: (context: { targetingKey?: string }) => (context.targetingKey === ADA.sub ? 'on' : 'off') };
const provider = () => new InMemoryProvider({ 'csm-ai-agent-on-sac': forAda, 'sac-search-ai-experiment': forAda });
const BOB = { ...ADA, sub: 'acct-bob', email: 'bob@customer.example', name: 'Bob' };

t.test('the assistant page and its stream', async (t) => {
  const app = await build(t, { flagProvider: provider(), env: { SESSION_SECRET, PARTNER_HOSTS: 'partners.example.test' } });
  const ada = { cookie: sealed(app, ADA) };

  t.test('a visitor is sent to sign in; an account without the flag, or on a partner host, finds nothing', async (t) => {
    const anonymous = await app.inject('/assistant?q=install');
    t.equal(anonymous.statusCode, 303);
    t.match(anonymous.headers.location, /\/login\?continue=https%3A%2F%2Fhelp\.example\.test%2Fassistant%3Fq%3Dinstall$/);
    t.equal((await app.inject({ url: '/assistant', headers: { cookie: sealed(app, BOB) } })).statusCode, 404);
    t.equal((await app.inject({ url: '/assistant', headers: { ...ada, host: 'partners.example.test' } })).statusCode, 404);
    t.equal((await app.inject({ url: '/assistant/stream?q=install', headers: { cookie: sealed(app, BOB) } })).statusCode, 404);
  });

  t.test('the page: a form, and a cited answer without JavaScript', async (t) => {
    const empty = await app.inject({ url: '/assistant', headers: ada });
    t.equal(empty.statusCode, 200);
    t.equal(empty.headers['cache-control'], 'private, no-store');
    t.match(empty.body, /<form[^>]*method="get"[^>]*action="\/assistant"/);
    t.match(empty.body, /<label for="assistant-question">/);
    t.notMatch(empty.body, 'assistant-answer');

    const res = await app.inject({ url: '/assistant?q=how+do+I+install+the+widget', headers: ada });
    t.equal(res.statusCode, 200);
    t.match(res.body, 'value="how do I install the widget"');
    t.match(res.body, /<a href="\/acme-cloud\/docs\/first-steps#install-the-widget">First steps: Install the widget<\/a>/);
    t.match(res.body, /<blockquote cite="[^"]+"><p>Run the installer\./);

    const nothing = await app.inject({ url: '/assistant?q=banana+bread+recipe', headers: ada });
    t.match(nothing.body, 'We could not find an answer');
    t.match(nothing.body, 'href="/contact?subject=banana+bread+recipe"');
  });

  t.test('too long a question is a 400 that says so', async (t) => {
    const res = await app.inject({ url: `/assistant?q=${'a'.repeat(2100)}`, headers: ada });
    t.equal(res.statusCode, 400);
  });

  t.test('the stream: server-sent events ending with the whole answer', async (t) => {
    const res = await app.inject({ url: '/assistant/stream?q=how+do+I+install+the+widget', headers: ada });
    t.equal(res.statusCode, 200);
    t.match(res.headers['content-type'], 'text/event-stream');
    t.equal(res.headers['cache-control'], 'private, no-store');
    const events = res.body.trim().split('\n\n').map((block) => {
      const [event, data] = block.split('\n');
      return { event: event?.slice(7), data: JSON.parse(data?.slice(6) ?? 'null') };
    });
    t.equal(events.length, 1);
    t.equal(events[0]?.event, 'answer');
    t.equal(events[0]?.data.mode, 'extractive');
    t.equal(events[0]?.data.citations[0].url, '/acme-cloud/docs/first-steps#install-the-widget');
    t.equal((await app.inject({ url: '/assistant/stream?q=', headers: ada })).statusCode, 400);
  });

  t.test('the widget: a link to the assistant page where it shows, nothing elsewhere', async (t) => {
    const WIDGET = 'data-island="assistant-widget"';
    const topic = await app.inject({ url: '/acme-cloud/docs/first-steps', headers: ada });
    t.equal(topic.statusCode, 200);
    t.match(topic.body, WIDGET);
    t.match(topic.body, /<aside class="assistant-widget" aria-label="Help centre assistant"><a class="assistant-widget-toggle" href="\/assistant" data-replay="assistant-widget-toggle">Ask the help centre<\/a><\/aside>/);
    t.match(topic.body, '"streamHref":"/assistant/stream"');
    t.notMatch((await app.inject('/acme-cloud/docs/first-steps')).body, WIDGET, 'not for visitors');
    t.notMatch((await app.inject({ url: '/acme-cloud/docs/first-steps', headers: { cookie: sealed(app, BOB) } })).body, WIDGET, 'not with the flag off');
    t.notMatch((await app.inject({ url: '/acme-cloud/docs/first-steps', headers: { ...ada, host: 'partners.example.test' } })).body, WIDGET, 'not on a partner host');
    for (const path of ['/contact', '/requests']) {
      t.notMatch((await app.inject({ url: path, headers: ada })).body, WIDGET, `not on ${path}`);
    }
    t.notMatch((await app.inject({ url: '/assistant', headers: ada })).body, WIDGET, 'not on the assistant page itself');
  });

  t.test('the AI summary dialog: on the results page for an account in its experiment, with its own page and stream', async (t) => {
    const results = await app.inject({ url: '/search-results/?searchTerm=install+widget', headers: ada });
    t.equal(results.statusCode, 200);
    t.match(results.body, 'data-island="assistant-summary"');
    t.match(results.body, /<details class="ai-summary"><summary>AI summary of these results<\/summary><p><a href="\/assistant\/summary\?q=install\+widget">Read the AI summary<\/a><\/p><\/details>/);
    t.notMatch((await app.inject({ url: '/search-results/?searchTerm=install+widget', headers: { cookie: sealed(app, BOB) } })).body, 'assistant-summary');
    t.notMatch((await app.inject('/search-results/?searchTerm=install+widget')).body, 'assistant-summary');
    t.notMatch((await app.inject({ url: '/search-results/?searchTerm=zzzqqq', headers: ada })).body, 'assistant-summary', 'no results, no summary');

    const page = await app.inject({ url: '/assistant/summary?q=install+widget', headers: ada });
    t.equal(page.statusCode, 200);
    t.match(page.body, '<h1>AI summary of search results</h1>');
    t.match(page.body, 'href="/acme-cloud/docs/first-steps#install-the-widget"');
    t.equal((await app.inject({ url: '/assistant/summary?q=install+widget', headers: { cookie: sealed(app, BOB) } })).statusCode, 404);
    const stream = await app.inject({ url: '/assistant/summary/stream?q=install+widget', headers: ada });
    t.match(stream.body, /^event: answer\n/);
  });

  t.test('in Japanese: the page, its form and the stream speak the language asked for', async (t) => {
    const page = await app.inject({ url: '/assistant?lang=ja&q=banana+bread+recipe', headers: ada });
    t.equal(page.statusCode, 200);
    t.match(page.body, /<html lang="ja"/);
    t.match(page.body, /<h1>ヘルプセンターに質問する<\/h1>/);
    t.match(page.body, /<input type="hidden" name="lang" value="ja"\/>/, 'the form keeps the language');
    t.match(page.body, /ヘルプコンテンツにこの質問への回答が見つかりませんでした。/);
    const english = await app.inject({ url: '/assistant?q=banana+bread+recipe', headers: ada });
    t.notMatch(english.body, /name="lang"/, 'no language field in English');
    t.match(english.body, /We could not find an answer to that in the help content\./);
    const unknown = await app.inject({ url: '/assistant/stream?lang=xx&q=install', headers: ada });
    t.equal(unknown.statusCode, 400, 'an unknown language is refused');
    t.match(unknown.body, /lang/);
    const summary = summaryPropsOf('install widget', 'ja');
    t.equal(summary.pageHref, '/assistant/summary?q=install+widget&lang=ja');
    t.equal(summary.strings.summary, 'この検索結果の AI 要約');
    t.equal(summaryPropsOf('install widget').pageHref, '/assistant/summary?q=install+widget');
  });
});
