import t from 'tap';
import { renderToStaticMarkup } from 'react-dom/server';
import { UnavailablePage } from '../../views/pages/unavailable-page.tsx';

t.test('the 503 page needs nothing stored and offers a retry', async (t) => {
  const html = renderToStaticMarkup(<UnavailablePage css="/assets/main.css" retryHref="/a?b=1&c=2" notSaved={false} retryAfterSeconds={5} />);
  t.match(html, /^<html lang="en">/);
  t.match(html, '<title>Unavailable for a moment</title>');
  t.match(html, '<main id="maincontent"');
  t.equal(html.match(/<h1[\s>]/g)?.length, 1, 'one heading');
  t.match(html, '<a href="/a?b=1&amp;c=2">Try again</a>');
  t.notMatch(html, /<script/, 'no scripts');
  t.notMatch(html, 'has not been saved');
  const posted = renderToStaticMarkup(<UnavailablePage css="/assets/main.css" retryHref="/" notSaved retryAfterSeconds={5} />);
  t.match(posted, 'What you sent has not been saved');
});
