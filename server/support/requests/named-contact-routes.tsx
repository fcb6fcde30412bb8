/**
 * /named-contact (spec §2 account menu): the account's named support contacts, listed, added and removed
 * by the account itself, with plain forms (post/redirect/get; a refusal keeps what was typed).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { stringsFor } from '../../../views/i18n/catalogue.tsx';
import { NamedContactsPage, type NamedContactField, type NamedContactsModel } from '../../../views/pages/support/named-contacts-page.tsx';
import { readerOf } from './access.ts';
import { checkContact, MAX_NAMED_CONTACTS, NamedContactStore } from './named-contacts.ts';
import type { PageKit } from './page-kit.tsx';

export const PATH = '/named-contact';

export default async function namedContactRoutes(app: FastifyInstance, opts: { config: Config; kit: PageKit }) {
  const { config, kit } = opts;
  const contacts = new NamedContactStore(app.db);
  const t = stringsFor('en').requests;
  // The form's token is bound to the account: a token from another account's page is refused.
  const purpose = (accountId: string) => `named-contact:${accountId}`;

  async function render(request: FastifyRequest, reply: FastifyReply, accountId: string | undefined,
    extra: { status?: number; values?: Record<NamedContactField, string>; errors?: NamedContactsModel['errors']; formError?: string; notice?: string } = {}) {
    const chrome = await kit.chrome(request, { title: t.contactsTitle, path: PATH });
    const model: NamedContactsModel = {
      chrome, action: PATH,
      signInHref: accountId ? undefined : kit.signInHref(PATH),
      contacts: accountId ? await contacts.list(accountId) : [],
      csrf: accountId ? app.formTokens.issue(purpose(accountId)) : '',
      values: extra.values ?? { name: '', email: '' },
      errors: extra.errors ?? {},
      formError: extra.formError,
      notice: extra.notice,
    };
    return reply.page(<NamedContactsPage {...model} />, { status: extra.status ?? 200, cache: 'private' });
  }

  app.get<{ Querystring: { done?: string } }>(PATH, async (request, reply) => {
    const reader = await readerOf(app, request, config);
    const done = request.query.done;
    return render(request, reply, reader.accountId, {
      ...(done === 'added' ? { notice: t.contactAdded } : done === 'removed' ? { notice: t.contactRemoved } : {}),
    });
  });

  app.post(PATH, { bodyLimit: 8192, config: { stateChanging: true } }, async (request, reply) => {
    const reader = await readerOf(app, request, config);
    if (!reader.accountId) return render(request, reply, undefined, { status: 401 });
    const accountId = reader.accountId;
    const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
    const text = (name: string) => (typeof body[name] === 'string' ? (body[name] as string).trim() : '');
    const values = { name: text('name'), email: text('email') };
    if (!app.formTokens.verify(purpose(accountId), body._csrf)) {
      return render(request, reply, accountId, { status: 403, values, formError: t.formExpired });
    }
    if (body.intent === 'remove') {
      const id = /^[1-9][0-9]{0,14}$/.test(text('id')) ? Number(text('id')) : undefined;
      // Another account's contact, or one already gone: nothing is removed, and nothing is said about it.
      const removed = id !== undefined && await contacts.remove(accountId, id);
      if (removed) request.log.info({ account: accountId }, 'named contact removed');
      return reply.redirect(`${PATH}?done=removed`, 303);
    }
    const problems = checkContact(values.name, values.email);
    const errors: NamedContactsModel['errors'] = {};
    for (const [field, problem] of Object.entries(problems) as [NamedContactField, keyof typeof t][]) errors[field] = t[problem] as string;
    if (Object.keys(errors).length > 0) return render(request, reply, accountId, { status: 422, values, errors });
    const added = await contacts.add(accountId, values.name, values.email);
    if (added === 'taken') return render(request, reply, accountId, { status: 422, values, errors: { email: t.emailTaken } });
    if (added === 'full') return render(request, reply, accountId, { status: 422, values, formError: t.tooManyContacts(MAX_NAMED_CONTACTS) });
    request.log.info({ account: accountId }, 'named contact added');
    return reply.redirect(`${PATH}?done=added`, 303);
  });
}
