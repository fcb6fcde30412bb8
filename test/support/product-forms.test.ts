import t from 'tap';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build, SAMPLE_CONTENT, tempContent } from '../helpers/build.ts';

/**
 * A product or page naming its own external form (customSupportForm… / supportForm) keeps a link to
 * it; every other product's support link opens the built-in contact form with the product chosen.
 */
t.test('product support links: an external form where one is named, the built-in form otherwise', async (t) => {
  const dir = await tempContent(t, SAMPLE_CONTENT);
  await appendFile(join(dir, 'products/codebarn-cloud.yaml'),
    'customSupportFormAuthenticated: https://forms.example.test/codebarn\ncustomSupportFormUnauthenticated: https://forms.example.test/codebarn/guest\n');
  const app = await build(t, { contentDir: dir });

  const own = await app.inject('/codebarn-cloud');
  t.equal(own.statusCode, 200);
  t.match(own.body, 'href="https://forms.example.test/codebarn/guest"', 'the anonymous visitor gets the product\'s unauthenticated form');

  const builtIn = await app.inject('/pagewell-cloud');
  t.equal(builtIn.statusCode, 200);
  t.match(builtIn.body, 'href="/contact?product=pagewell-cloud"', 'no external form: the built-in contact form, product chosen');
  t.notMatch(builtIn.body, 'forms.example.test');

  const chosen = await app.inject('/contact?product=codebarn-cloud');
  t.equal(chosen.statusCode, 200);
  t.match(chosen.body, 'class="own-form"');
  t.match(chosen.body, 'href="https://forms.example.test/codebarn/guest"', 'the contact form points to the product\'s own form');
  t.notMatch((await app.inject('/contact?product=pagewell-cloud')).body, 'class="own-form"');
});
