/**
 * The first visit's budget (issue 'A light first visit again'), in bytes as sent with brotli: what the
 * page types of the sample content cost before any interaction (scripts/page-weight.ts), and that every
 * island waiting for an interaction is what that interaction downloads, React with it.
 */
import t from 'tap';
import { pageWeight } from '../../scripts/page-weight.ts';
import { build, SAMPLE_CONTENT } from '../helpers/build.ts';
import { PAGE_TYPES } from '../fixtures/page-types.ts';

const KB = 1024;

t.test('bytes before any interaction, per page type', async (t) => {
  const app = await build(t, { contentDir: SAMPLE_CONTENT });
  const budgets: [string, string, number][] = [
    ['home', PAGE_TYPES.home, 25 * KB],
    ['topic', PAGE_TYPES.topic, 25 * KB],
    ['KB article', PAGE_TYPES['KB article'], 25 * KB],
    ['versioned topic', PAGE_TYPES['versioned topic'], 25 * KB],
    ['search results', '/search-results/?searchTerm=filter', 40 * KB],
  ];
  for (const [what, path, budget] of budgets) {
    const weight = await pageWeight(app, path);
    const figures = `HTML ${weight.html}, CSS ${weight.css}, JavaScript ${weight.js} in ${weight.scripts.length} files`;
    t.ok(weight.total <= budget, `${what}: ${weight.total} bytes (${figures}), at most ${budget}`);
    t.ok(weight.js <= 10 * KB, `${what}: ${weight.js} bytes of JavaScript, at most ${10 * KB}`);
    t.ok(Object.keys(weight.onInteraction).length > 0, `${what}: has islands waiting for an interaction (${Object.keys(weight.onInteraction).join(', ')})`);
    // React is in the first island opened: tens of KB that a visit which only reads never downloads.
    for (const [name, bytes] of Object.entries(weight.onInteraction)) {
      if (name !== 'search') t.ok(bytes > 20 * KB, `${what}: ${name} loads React when first used (${bytes} bytes)`);
    }
  }
});
