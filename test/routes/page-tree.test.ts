/**
 * The page tree of a documentation page is bounded (spec §3, §4): the collections, the current branch
 * open with the current page marked, other branches as links to their pages, long lists as a window
 * around the current item with a link to the page that lists them all. So a page of a large site is
 * not larger than a page of a small one. The content is generated here: 24 collections of 16 topics and
 * a topic set of 20 topics each.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { build, tempContent } from '../helpers/build.ts';
import { SIBLINGS_MAX, TREE_LIST_MAX } from '../../server/pages/docs.ts';
import { DOC_LIST_MAX } from '../../server/pages/loaders/documented-product.tsx';

const COLLECTIONS = 24;
const TOPICS = 16;
const SET_TOPICS = 20;

async function largeTree(dir: string) {
  await mkdir(join(dir, 'topics/big'), { recursive: true });
  await mkdir(join(dir, 'topic-sets'), { recursive: true });
  const collections: string[] = [];
  const files: Promise<void>[] = [];
  for (let c = 0; c < COLLECTIONS; c++) {
    const id = `acme-cloud-c${c}`;
    collections.push(id);
    const children: string[] = [];
    for (let i = 0; i < TOPICS; i++) {
      children.push(`${id}-t${i}`);
      files.push(writeFile(join(dir, `topics/big/${id}-t${i}.md`),
        `---\nid: ${id}-t${i}\ntitle: Topic ${c}.${i}\nslug: c${c}-t${i}\ncontext: acme-cloud\n---\nText.\n`));
    }
    const set = `${id}-set`;
    children.push(set);
    const setTopics = Array.from({ length: SET_TOPICS }, (_, i) => `${set}-t${i}`);
    files.push(writeFile(join(dir, `topic-sets/${set}.md`),
      `---\nid: ${set}\ntitle: Set ${c}\nslug: c${c}-set\ncontext: acme-cloud\ntopics: [${setTopics.join(', ')}]\n---\nOverview.\n`));
    for (const [i, topic] of setTopics.entries()) {
      files.push(writeFile(join(dir, `topics/big/${topic}.md`),
        `---\nid: ${topic}\ntitle: Set topic ${c}.${i}\nslug: c${c}-set-t${i}\ncontext: acme-cloud\n---\nText.\n`));
    }
    files.push(writeFile(join(dir, `collections/${id}.yaml`),
      `id: ${id}\ntitle: Collection ${c}\nslug: c${c}\ncontext: acme-cloud\nchildren: [${children.join(', ')}]\n`));
  }
  files.push(writeFile(join(dir, 'pages/acme-cloud-docs.yaml'),
    `id: acme-cloud-docs\npageType: documentedProduct\ntitle: Acme Cloud documentation\ncontext: acme-cloud\ncollections: [acme-cloud-basics, ${collections.join(', ')}]\n`));
  await Promise.all(files);
}

const treeOf = (html: string) => /<nav aria-label="Documentation"[^]*?<\/nav>/.exec(html)?.[0] ?? '';
const count = (s: string, needle: string) => s.split(needle).length - 1;
/** Most links the tree may carry: its title, three windows, and a link to each whole list. */
const MAX_TREE_LINKS = 1 + 3 * TREE_LIST_MAX + 3;

t.test('the page tree of a large documentation space stays bounded', async (t) => {
  const dir = await tempContent(t);
  await largeTree(dir);
  const app = await build(t, { contentDir: dir });

  t.test('a topic in a topic set: its collection and set open, the others links', async (t) => {
    const res = await app.inject('/acme-cloud/docs/c12-set-t7');
    t.equal(res.statusCode, 200);
    const tree = treeOf(res.body);
    const links = count(tree, '<a ');
    t.ok(links <= MAX_TREE_LINKS, `${links} links in the tree (at most ${MAX_TREE_LINKS}; the whole tree has ${COLLECTIONS * (TOPICS + 1 + SET_TOPICS) + COLLECTIONS + 2})`);
    t.equal(count(tree, 'aria-current="page"'), 1, 'one current page');
    t.match(tree, '<a href="/acme-cloud/docs/c12-set-t7" aria-current="page">Set topic 12.7</a>', 'the current page, marked');
    t.equal(count(tree, '<details open=""'), 2, 'its collection and its set are open');
    t.equal(count(tree, '<details'), 2, 'no other branch is carried');
    t.match(tree, /<a href="\/acme-cloud\/docs\/c12">Collection 12<\/a><details open="">/, 'the collection is open');
    t.match(tree, /<a href="\/acme-cloud\/docs\/c12-set">Set 12<\/a><details open="">/, 'the set is open');
    t.match(tree, '<li class="page-tree-item"><a href="/acme-cloud/docs/c13">Collection 13</a></li>', 'another collection is a link to its page');
    t.match(tree, `<a href="/acme-cloud/docs">All ${COLLECTIONS + 1} pages in Acme Cloud documentation</a>`, 'the documentation home lists every collection');
    t.match(tree, `<a href="/acme-cloud/docs/c12">All ${TOPICS + 1} pages in Collection 12</a>`, 'the collection lists all its children');
    t.match(tree, `<a href="/acme-cloud/docs/c12-set">All ${SET_TOPICS} pages in Set 12</a>`, 'the set lists all its topics');
    const siblings = /<div class="siblings[^]*?<\/div>/.exec(res.body)?.[0] ?? '';
    t.ok(count(siblings, '<a ') <= SIBLINGS_MAX + 1, `siblings: ${count(siblings, '<a ')} links`);
    t.match(siblings, `<a href="/acme-cloud/docs/c12-set">All ${SET_TOPICS} pages in Set 12</a>`, 'and the section link');
  });

  t.test('a topic at the end of a long collection: the window holds it', async (t) => {
    const tree = treeOf((await app.inject(`/acme-cloud/docs/c${COLLECTIONS - 1}-t${TOPICS - 1}`)).body);
    t.ok(count(tree, '<a ') <= MAX_TREE_LINKS);
    t.match(tree, `<a href="/acme-cloud/docs/c${COLLECTIONS - 1}-t${TOPICS - 1}" aria-current="page">`);
    t.equal(count(tree, '<details open=""'), 1, 'its collection is open');
  });

  t.test('a collection page: its own children open', async (t) => {
    const tree = treeOf((await app.inject('/acme-cloud/docs/c3')).body);
    t.ok(count(tree, '<a ') <= MAX_TREE_LINKS);
    t.match(tree, /<a href="\/acme-cloud\/docs\/c3" aria-current="page">Collection 3<\/a><details open="">/);
    t.match(tree, '<a href="/acme-cloud/docs/c3-t0">Topic 3.0</a>', 'its first children');
    t.equal(count(tree, '<details'), 1, 'its topic set is a link');
  });

  t.test('the documentation home: a window of the collections, and bounded lists', async (t) => {
    const html = (await app.inject('/acme-cloud/docs')).body;
    const tree = treeOf(html);
    t.equal(count(tree, '<details'), 0);
    t.equal(count(tree, '<a '), 1 + TREE_LIST_MAX + 1, 'title, the first collections, the link to all');
    const lists = [...html.matchAll(/<section class="doc-list">[^]*?<\/section>/g)].map((m) => m[0]);
    t.equal(lists.length, COLLECTIONS + 1, 'one list per collection');
    t.ok(lists.every((l) => count(l, '<a ') <= DOC_LIST_MAX + 1), 'each with at most DOC_LIST_MAX links and its heading');
    t.match(lists[4] ?? '', `<a href="/acme-cloud/docs/c3">All ${TOPICS + 1} pages in Collection 3</a>`, 'a long one ends with a link to its page');
  });

  t.test('the page does not grow with the site: the small tree and the large one', async (t) => {
    const small = await build(t);
    const before = (await small.inject('/acme-cloud/docs/first-steps')).body.length;
    const after = (await app.inject('/acme-cloud/docs/first-steps')).body.length;
    t.ok(after < before * 1.5, `the same topic: ${before} bytes with 1 collection, ${after} with ${COLLECTIONS + 1}`);
  });
});
