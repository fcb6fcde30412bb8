/**
 * An island's props are written beside its markup as a JSON data block that nothing in them can end or
 * turn into markup, and that reads back as the very props (DESIGN.md Safety by construction).
 */
import t from 'tap';
import { renderToString } from 'react-dom/server';
import { Island } from '../../views/island.tsx';
import { islandJson } from '../../views/rich-text/safe-html.tsx';

const HOSTILE = ['</script><script>alert(1)</script>', '<!--', '<\/SCRIPT >', 'a\u2028b\u2029c', '"quoted" & \'single\'', '\u0000', 'ja: 日本語'];

t.test('islandJson escapes <, U+2028 and U+2029 and reads back unchanged', async (t) => {
  for (const text of HOSTILE) {
    const json = islandJson({ text, list: [text] });
    // The label itself must not carry a raw separator or NUL into the TAP output.
    const label = JSON.stringify(text).replace(/[\u0000-\u001f\u2028\u2029]/g, (c) => `U+${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    t.notMatch(json, /</, `${label}: no < is written`);
    t.notMatch(json, /[\u2028\u2029]/, `${label}: no raw line or paragraph separator`);
    t.same(JSON.parse(json), { text, list: [text] }, `${label}: the same value is read back`);
  }
  t.equal(islandJson(undefined), 'null', 'a value JSON cannot write is null, not an empty block');
});

function Greeting({ name, items }: { name: string; items: string[] }) {
  return <p className="greeting">Hello {name}<span>{items.length}</span></p>;
}

t.test('an Island is its props block, then a wrapper holding exactly what the component renders', async (t) => {
  const props = { name: '</script><b>x</b>', items: ['a', 'b'] };
  const html = renderToString(<main><Island name="feedback" component={Greeting} props={props} hydrate="interaction" /></main>);
  const match = /^<main><script type="application\/json" data-island-props="feedback">(.*?)<\/script><div class="island" data-island="feedback" data-hydrate="interaction">(.*)<\/div><\/main>$/.exec(html);
  t.ok(match, `the markup has the expected shape: ${html}`);
  t.same(JSON.parse(match?.[1] ?? ''), props, 'the block holds the props');
  t.equal(match?.[2], renderToString(<Greeting {...props} />), 'the wrapper holds the component as rendered alone');
  t.equal(html.match(/<\/script>/g)?.length, 1, 'the only </script> is the one closing the block');
});
