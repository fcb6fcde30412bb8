/**
 * Flag evaluation through the real OpenFeature server SDK and the definitions-file provider (flagd's
 * evaluator): defaults, targeting by role and e-mail domain hash, rollout stickiness and spread, file
 * reload, a broken file; the evaluation context and the AI widget's place rule.
 */
import { rename, writeFile } from 'node:fs/promises';
import { createHash, randomUUID } from 'node:crypto';
import t from 'tap';
import { OpenFeature, type Client, type Logger } from '@openfeature/server-sdk';
import { FileFlagProvider, parseFlagsFile, type FlagsFileProblem } from '../../server/flags/file-provider.ts';
import { FLAGS, FLAG_NAMES } from '../../server/flags/catalogue.ts';
import { countryOfTimeZone, emailDomainHash, evaluationContext } from '../../server/flags/context.ts';
import { isNoWidgetPath, widgetAllowedAt } from '../../server/flags/ai-widget.ts';
import { ANONYMOUS } from '../../views/view-model.ts';
import { SAMPLE_CONTENT } from '../helpers/build.ts';
import { booleanFlag, definitions, flagsFile, rollout, until } from './helpers.ts';

const quiet: Logger = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined };

/** A client on its own provider for `file`, with every load's problems recorded. */
async function clientFor(t: { teardown: (fn: () => unknown) => void }, file: string) {
  const loads: { loaded: boolean; problems: FlagsFileProblem[] }[] = [];
  const provider = new FileFlagProvider({ file, logger: quiet, settleMs: 10, onLoad: (r) => loads.push(r) });
  const domain = randomUUID();
  await OpenFeature.setProviderAndWait(domain, provider);
  t.teardown(() => provider.onClose());
  return { client: OpenFeature.getClient(domain), provider, loads };
}

const on = (client: Client, name: string, context = {}) => client.getBooleanValue(name, false, context);

t.test('the sample flags file holds every flag at its default', async (t) => {
  const { client, loads } = await clientFor(t, `${SAMPLE_CONTENT}/flags.json`);
  t.same(loads.at(-1), { loaded: true, missing: false, problems: [] });
  for (const name of FLAG_NAMES) {
    const details = await client.getBooleanDetails(name, !FLAGS[name].default, { targetingKey: 'acct-1', role: 'customer' });
    t.equal(details.value, FLAGS[name].default, `${name} is ${FLAGS[name].default}`);
    t.equal(details.errorCode, undefined);
  }
  t.equal(FLAGS['csm-ai-agent-on-sac'].default, false, 'spec §7 defaults');
  t.equal(FLAGS['sac-search-ai-experiment'].default, false);
  t.equal(FLAGS['sac-new-content-ux-experiment-gate'].default, false);
  t.equal(FLAGS.csp_ui_deployment_upgrade_switch.default, false);
});

t.test('targeting by role and by e-mail domain hash', async (t) => {
  const vendorHash = emailDomainHash('someone@Vendor.example');
  const file = await flagsFile(t, {
    'csm-ai-agent-on-sac': booleanFlag('off', { if: [{ '==': [{ var: 'role' }, 'customer'] }, 'on', 'off'] }),
    'sac-search-ai-experiment': booleanFlag('off', { if: [{ in: [{ var: 'emailDomainHash' }, [vendorHash]] }, 'on', 'off'] }),
  });
  const { client } = await clientFor(t, file);
  t.equal(await on(client, 'csm-ai-agent-on-sac', { role: 'customer' }), true);
  t.equal(await on(client, 'csm-ai-agent-on-sac', { role: 'anonymous' }), false);
  t.equal(await on(client, 'sac-search-ai-experiment', { emailDomainHash: emailDomainHash('b@vendor.example') }), true, 'same domain, any case');
  t.equal(await on(client, 'sac-search-ai-experiment', { emailDomainHash: emailDomainHash('b@other.example') }), false);
  t.equal(await on(client, 'sac-featured-video'), false, 'a flag missing from the file: the caller\'s default');
});

t.test('a rollout is sticky per targeting key and lands 20 % of 10 000 keys within ±2 %', async (t) => {
  const file = await flagsFile(t, { 'csm-ai-agent-on-sac': booleanFlag('off', rollout(20)) });
  const { client } = await clientFor(t, file);
  let count = 0;
  const first: boolean[] = [];
  for (let i = 0; i < 10_000; i++) {
    const value = await on(client, 'csm-ai-agent-on-sac', { targetingKey: `acct-${i}` });
    first.push(value);
    if (value) count++;
  }
  t.ok(count >= 1800 && count <= 2200, `${count} of 10000 on`);
  let same = 0;
  for (let i = 0; i < 10_000; i += 7) if (await on(client, 'csm-ai-agent-on-sac', { targetingKey: `acct-${i}`, path: '/elsewhere' }) === first[i]) same++;
  t.equal(same, Math.ceil(10_000 / 7), 'every key keeps its bucket, whatever else the context says');
});

t.test('an edited file is seen by the next evaluation; a broken one is refused with where, the old definitions serve', async (t) => {
  const file = await flagsFile(t, { 'csm-ai-agent-on-sac': booleanFlag('off') });
  const { client, loads } = await clientFor(t, file);
  t.equal(await on(client, 'csm-ai-agent-on-sac'), false);
  await writeFile(file, definitions({ 'csm-ai-agent-on-sac': booleanFlag('on') }));
  await until(async () => on(client, 'csm-ai-agent-on-sac'), 'the reload');
  t.pass('reloaded');

  const broken = definitions({ 'csm-ai-agent-on-sac': booleanFlag('off') }).replace('"defaultVariant": "off"', '"defaultVariant": "off",,');
  // Written aside and renamed in, so the watcher never reads the file half-written (an empty file is
  // refused too, at line 1, which is not the mistake this checks).
  await writeFile(`${file}.next`, broken);
  await rename(`${file}.next`, file);
  await until(async () => loads.at(-1)?.loaded === false, 'the refusal');
  const problem = loads.at(-1)?.problems[0];
  t.equal(problem?.file, file);
  t.equal(problem?.line, broken.split('\n').findIndex((l) => l.includes(',,')) + 1, 'the line of the mistake');
  t.ok(problem?.column, 'and its column');
  t.match(problem?.reason, 'not valid JSON');
  t.equal(await on(client, 'csm-ai-agent-on-sac'), true, 'the last good definitions keep serving');

  await writeFile(file, definitions({ 'csm-ai-agent-on-sac': { ...booleanFlag('off'), state: 'SOMETIMES' } }));
  await until(async () => loads.at(-1)?.problems[0]?.field !== undefined, 'the schema refusal');
  const schema = loads.at(-1)?.problems ?? [];
  t.ok(schema.some((p) => p.field === '/flags/csm-ai-agent-on-sac/state' && p.line === 4 && /allowed values/.test(p.reason)), `the flag's field and line: ${JSON.stringify(schema)}`);
  t.equal(await on(client, 'csm-ai-agent-on-sac'), true, 'still the last good definitions');
});

t.test('a file that was never good: every flag takes its default', async (t) => {
  const file = await flagsFile(t, {});
  await writeFile(file, '{ "flags": ');
  const { client, provider } = await clientFor(t, file);
  t.equal(provider.loaded, false);
  const details = await client.getBooleanDetails('sac-featured-video', true);
  t.equal(details.value, true);
  t.equal(details.reason, 'DEFAULT');
});

t.test('the shapes of flags say which ones read the targeting key', async (t) => {
  const parsed = parseFlagsFile('f.json', definitions({
    a: booleanFlag('on'), b: booleanFlag('off', rollout(10)), c: booleanFlag('off', { if: [{ '==': [{ var: 'path' }, '/x'] }, 'on', 'off'] }),
  }), quiet);
  if ('problems' in parsed) throw new Error('refused');
  t.same(parsed.shapes.get('a'), { targeted: false, usesTargetingKey: false });
  t.same(parsed.shapes.get('b'), { targeted: true, usesTargetingKey: true });
  t.same(parsed.shapes.get('c'), { targeted: true, usesTargetingKey: false });
});

t.test('the evaluation context: account id, role, domain hash, never the address; country from the time zone', async (t) => {
  const visitor = { signedIn: true, id: 'acct-7', email: 'kim@Customer.example', canEdit: false, staff: false, partner: false };
  const user = { sub: 'acct-7', email: 'kim@Customer.example', emailVerified: true, name: 'Kim', canEdit: false, partner: false, cohort: { zoneinfo: 'Europe/Berlin', admin: true } };
  const context = evaluationContext({ visitor, user, path: '/docs/x', host: 'help.example.test' });
  t.same(context, {
    role: 'customer', signedIn: true, path: '/docs/x', host: 'help.example.test', vendorAccount: false, partner: false, admin: true,
    targetingKey: 'acct-7', emailDomainHash: emailDomainHash('x@customer.example'), country: 'DE',
  });
  t.notMatch(JSON.stringify(context), /kim|@/i, 'no address, no local part');
  t.equal(emailDomainHash('a@customer.example'), createHash('sha256').update('customer.example').digest('hex'), 'SHA-256 of the domain');
  t.equal(emailDomainHash('z@CUSTOMER.example'), emailDomainHash('a@customer.example'), 'whatever its case');
  t.equal(countryOfTimeZone('Asia/Tokyo'), 'JP');
  t.equal(countryOfTimeZone('Not/AZone'), undefined);
  const anonymous = evaluationContext({ visitor: ANONYMOUS, path: '/', host: 'h', anonymousId: 'abcdefghijklmnopqrstuv' });
  t.equal(anonymous.targetingKey, 'abcdefghijklmnopqrstuv');
  t.equal(anonymous.role, 'anonymous');
  t.equal(anonymous.country, undefined, 'the server knows no anonymous visitor\'s time zone');
  t.equal(anonymous.admin, false);
});

t.test('the AI widget never shows on contact and request paths nor on partner hosts', async (t) => {
  const customer = { signedIn: true, id: 'a', email: 'a@b.example', canEdit: false, staff: false, partner: false };
  for (const path of ['/contact', '/contact/billing', '/hot-contact', '/partnercontact', '/requests', '/requests/SR-1', '/named-contact', '/ja/contact']) {
    t.equal(isNoWidgetPath(path), true, path);
    t.equal(widgetAllowedAt({ visitor: customer, path, partnerHost: false }), false, `${path}: no widget`);
  }
  for (const path of ['/', '/contacts', '/acme-cloud/docs/first-steps', '/search-results/']) t.equal(isNoWidgetPath(path), false, path);
  t.equal(widgetAllowedAt({ visitor: customer, path: '/', partnerHost: false }), true);
  t.equal(widgetAllowedAt({ visitor: customer, path: '/', partnerHost: true }), false, 'not on a partner host');
  t.equal(widgetAllowedAt({ visitor: ANONYMOUS, path: '/', partnerHost: false }), false, 'not for anonymous visitors');
});
