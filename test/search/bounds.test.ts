import t from 'tap';
import { importContent } from '../../server/content/import.ts';
import { build, testDb, SAMPLE_CONTENT } from '../helpers/build.ts';

const URL = '/gateway/api/help-content/v2/search';
const words = (n: number, word = 'sso') => Array.from({ length: n }, () => word).join(' ');

t.test('what one search may ask for is bounded', async (t) => {
  // Imported first, so the start stays short on a busy machine.
  const db = await testDb(t);
  await importContent(db, SAMPLE_CONTENT);
  const app = await build(t, { db, contentDir: SAMPLE_CONTENT, env: { IMPORT_ON_START: 'false' } });
  const post = (query: string) => app.inject({ method: 'POST', url: URL, payload: { query, language: 'ja' } });

  t.test('the API refuses more than 256 characters or 32 words with a 400 naming body/query', async (t) => {
    for (const query of ['設'.repeat(257), words(33, 'a'), words(40)]) {
      const res = await post(query);
      t.equal(res.statusCode, 400, `${query.length} characters`);
      t.match(res.headers['content-type'], 'application/json');
      t.match(res.json(), { statusCode: 400, message: /^body\/query must/ });
    }
    t.match((await post('設'.repeat(257))).json().message, '256 characters');
    t.match((await post(words(33, 'a'))).json().message, '32 words');
  });

  t.test('the API answers a 240-character CJK query and 32 words', async (t) => {
    const cjk = Array.from({ length: 240 }, (_, i) => String.fromCharCode(0x4e00 + i * 11)).join('');
    for (const query of [cjk, words(32), 'SAML シングルサインオン 設定']) {
      const res = await post(query);
      t.equal(res.statusCode, 200, `${query.slice(0, 20)}…`);
    }
  });

  t.test('the results page searches for the bounded term and says so', async (t) => {
    const long = `${words(40)} ${'設'.repeat(300)}`;
    const res = await app.inject(`/search-results/?searchTerm=${encodeURIComponent(long)}`);
    t.equal(res.statusCode, 200);
    t.match(res.headers['content-type'], 'text/html');
    t.match(res.body, 'Your search was longer than 32 words or 256 characters');
    t.match(res.body, `Showing results for &quot;${words(32)}&quot;`, 'the first 32 words were searched');
    const cut = await app.inject(`/search-results/?searchTerm=${encodeURIComponent('設定'.repeat(200))}`);
    t.equal(cut.statusCode, 200);
    t.match(cut.body, 'Your search was longer than');
    t.match(cut.body, `&quot;${'設定'.repeat(128)}&quot;`, 'the first 256 characters were searched');
    const normal = await app.inject('/search-results/?searchTerm=configure');
    t.notMatch(normal.body, 'Your search was longer');
  });
});
