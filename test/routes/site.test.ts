import t from 'tap';
import { build, SAMPLE_CONTENT, PREVIEW_TOKEN } from '../helpers/build.ts';

t.test('the sample help centre', async (t) => {
  const app = await build(t, { contentDir: SAMPLE_CONTENT });

  t.test('every page in the sitemap renders with one h1, a canonical URL and cache validators', async (t) => {
    const sitemap = await app.inject('/sitemap.xml');
    const paths = [...sitemap.body.matchAll(/<loc>https:\/\/help\.example\.test([^<]+)<\/loc>/g)].map((m) => m[1] as string);
    t.ok(paths.length > 250, `${paths.length} pages`);
    const failures: string[] = [];
    for (const path of paths) {
      const res = await app.inject(path);
      if (res.statusCode !== 200) failures.push(`${path}: ${res.statusCode}`);
      else if ((res.body.match(/<h1[ >]/g) ?? []).length !== 1) failures.push(`${path}: ${(res.body.match(/<h1[ >]/g) ?? []).length} h1`);
      else if (!res.headers.etag || !/^public/.test(String(res.headers['cache-control']))) failures.push(`${path}: no validator`);
    }
    t.same(failures, []);
  });

  t.test('page types render their rules', async (t) => {
    const home = await app.inject('/');
    t.match(home.body, "Tell us what you&#x27;re looking for");
    t.notMatch(home.body, 'Billing and licensing', 'cards hidden in the header are skipped on the home page');
    t.match(home.body, 'Tracklight');
    const dc = await app.inject('/?platform=data-center');
    t.match(dc.body, 'href="/tracklight-data-center"');

    const docs = await app.inject('/tracklight-cloud/docs');
    t.match(docs.body, 'name="product" value="tracklight"');
    t.match(docs.body, 'name="deployment" value="cloud"');
    const dcDocs = await app.inject('/tracklight-data-center/11.3/docs');
    t.match(dcDocs.body, 'name="version" value="11.3"');
    t.match(dcDocs.body, 'name="deployment" value="data_center"');

    const collection = await app.inject('/tracklight-cloud/docs/search-and-filters');
    t.match(collection.body, 'View topic');
    const guide = await app.inject('/tracklight-cloud/docs/get-started');
    t.match(guide.body, 'View topics');

    const hub = await app.inject('/migration/docs/plan-and-run-your-migration');
    t.match(hub.body, 'Cloud migration', 'a hub collection is titled from its context');
    t.notMatch(hub.body, 'name="version"', 'hub collections have no deployment selector');
    t.match(collection.body, 'href="/tracklight-data-center"', 'product collections have one');

    const resources = await app.inject('/tracklight-cloud/resources');
    t.equal(resources.statusCode, 200);
    t.match(resources.body, 'Fernhollow Community');

    const kbHome = await app.inject('/tracklight/kb');
    t.match(kbHome.body, '<h1>Tracklight Knowledge Base</h1>');
    t.match(kbHome.body, 'action="/search-results/"');
    t.match(kbHome.body, 'More ways to get help');

    const contact = await app.inject('/contact');
    t.match(contact.body, 'https://support.fernhollow.example/forms/contact/guest', 'anonymous visitors get the unauthenticated form');
    const ja = await app.inject('/ja/contact');
    t.match(ja.body, '<html lang="ja"');
    t.match(ja.body, 'href="/ja/legal/privacy-policy"', 'footer links carry the /ja prefix');
    const partner = await app.inject('/partnercontact');
    t.match(partner.body, 'https://partners.fernhollow.example/portal');
    t.equal((await app.inject('/requests')).statusCode, 200);
    t.equal((await app.inject('/file-download')).statusCode, 200);
  });

  t.test('guide topics show progress and up next', async (t) => {
    const res = await app.inject('/tracklight-cloud/docs/configure-board-columns');
    t.equal(res.statusCode, 200);
    t.match(res.body, /visited|upcoming/);
    t.match(res.body, 'More in this guide');
  });

  t.test('the version selector goes to the same page in another version, or explains', async (t) => {
    const ok = await app.inject('/version-switch?entry=tracklight-data-center-add-a-cluster-node&version=10.4&from=11.3');
    t.equal(ok.statusCode, 303);
    t.equal(ok.headers.location, '/tracklight-data-center/10.4/docs/add-a-cluster-node');
    const missing = await app.inject('/version-switch?entry=tracklight-data-center-configure-json-logging&version=10.4&from=11.3');
    t.equal(missing.statusCode, 404);
    t.match(missing.body, 'Unable to find page');
    t.match(missing.body, 'This exact page does not exist in our Data Center 10.4 documentation. Would you like to look for an alternative page?');
    t.match(missing.body, 'href="/tracklight-data-center/10.4/docs"', 'Browse goes to that version');
    t.match(missing.body, 'href="/tracklight-data-center/11.3/docs/configure-json-logging"', 'Cancel goes back');
    t.match(missing.body, /href="\/search-results\/\?searchTerm=[^"]*deployment=data_center[^"]*version=10.4/);
    const bad = await app.inject('/version-switch?entry=x&version=latest');
    t.equal(bad.statusCode, 400);
    t.equal((await app.inject('/tracklight-data-center/11.3')).headers.location, '/tracklight-data-center/11.3/docs');
  });

  t.test('preview errors say which fields are missing', async (t) => {
    const res = await app.inject(`/preview/tracklight-cloud-automate-issue-triage?preview=${PREVIEW_TOKEN}`);
    t.equal(res.statusCode, 200, 'an unpublished topic with its fields previews');
    t.match(res.body, 'PREVIEW MODE');
    t.equal(res.headers['cache-control'], 'private, no-store');
    t.equal((await app.inject('/preview/tracklight-cloud-automate-issue-triage')).statusCode, 404, 'not without the token');
  });
});
