import t from 'tap';
import { parseQuery, tsQuerySql, type SearchSettings } from '../../server/search/query.ts';

const clauses = (text: string, settings?: SearchSettings) =>
  parseQuery(text, settings).clauses.map((c) => `${c.exclude ? '-' : ''}${c.alternatives.join('|')}`);

t.test('punctuation is text, never an operator', async (t) => {
  t.same(clauses('Install and Deploy - Linux'), ['Install', 'and', 'Deploy', 'Linux'], 'a dash between spaces');
  t.same(clauses('Install and Deploy – Linux — now'), ['Install', 'and', 'Deploy', 'Linux', 'now'], 'en and em dashes');
  t.same(clauses('A/B testing'), ['A B', 'testing'], 'a slash joins the parts of one phrase');
  t.same(clauses('C++ & Q&A (beta)'), ['C++', 'Q&A', 'beta']);
  t.same(clauses('on-call rotation'), ['on-call', 'rotation'], 'a hyphen inside a word stays part of it');
  t.same(clauses('why? !important | x'), ['why', 'important', 'x']);
});

t.test('-word excludes; quoted phrases stay phrases; or joins alternatives', async (t) => {
  t.same(clauses('configure -cluster'), ['configure', '-cluster']);
  t.same(clauses('backup -"data center"'), ['backup', '-data center']);
  t.same(clauses('"merge checks" required'), ['merge checks', 'required']);
  t.same(clauses('slack or teams alerts'), ['slack|teams', 'alerts']);
  t.same(clauses('or nothing'), ['or', 'nothing'], 'a leading or is a word');
  t.same(clauses('"unclosed phrase'), ['unclosed phrase']);
});

t.test('codes pasted from a product are phrases of their parts', async (t) => {
  t.same(clauses('ERR_CERT_DATE_INVALID'), ['ERR CERT DATE INVALID']);
  t.same(clauses('java.lang.OutOfMemoryError: Java heap space'), ['java lang OutOfMemoryError', 'Java', 'heap', 'space']);
  t.same(clauses('HTTP 502'), ['HTTP', '502']);
  t.same(clauses('0x80070005 E1234'), ['0x80070005', 'E1234']);
  t.same(clauses('error 0x80070005.'), ['error', '0x80070005'], 'a full stop after a code is punctuation');
  t.equal(parseQuery('java.lang.OutOfMemoryError -x').positive, 'java lang OutOfMemoryError');
});

t.test('stop phrases and synonyms of the content team', async (t) => {
  const settings: SearchSettings = {
    synonyms: [['sso', 'single sign-on', 'saml'], ['2fa', 'two-step login', 'mfa']],
    stopPhrases: ['how do i', 'how to'],
  };
  t.same(clauses('How do I set up SSO?', settings), ['set', 'up', 'sso|single sign-on|saml']);
  t.same(clauses('enable two-step login', settings), ['enable', '2fa|two-step login|mfa'], 'a phrase of a group');
  t.same(clauses('Single Sign-On setup', settings), ['sso|single sign-on|saml', 'setup'], 'case and the longest member');
  t.same(clauses('how to', settings), ['how', 'to'], 'a query of only stop phrases is searched as typed');
  t.same(clauses('"how do i" export', settings), ['how do i', 'export'], 'not inside quotes');
  t.same(clauses('showdown how-to', settings), ['showdown', 'how-to'], 'whole words only');
  t.equal(parseQuery('How do I set up SSO?', settings).positive, 'set up SSO?');
});

t.test('the clauses compile to one tsquery expression', async (t) => {
  const params: unknown[] = [];
  const add = (v: unknown) => `$${params.push(v)}`;
  const parsed = parseQuery('a or b c -d');
  t.equal(tsQuerySql(parsed, 'all', add),
    "((plainto_tsquery('english', $1) || plainto_tsquery('english', $2)) && (plainto_tsquery('english', $3)) && (!! (plainto_tsquery('english', $4))))");
  t.same(params, ['a', 'b', 'c', 'd']);
  params.length = 0;
  t.equal(tsQuerySql(parseQuery('"sign in" java.lang.OutOfMemoryError start-up'), 'all', add),
    "((phraseto_tsquery('english', $1)) && (phraseto_tsquery('english', $2)) && (plainto_tsquery('english', $3)))",
    'phrases and codes are phrases; a single word, hyphenated or not, is the AND of its lexemes');
  t.same(params, ['sign in', 'java lang OutOfMemoryError', 'start-up']);
  t.match(tsQuerySql(parsed, 'any', add), /^\(\(\(.* \|\| .*\)\) && \(!! /);
  t.equal(tsQuerySql(parseQuery(' - '), 'all', add), "''::tsquery");
});
