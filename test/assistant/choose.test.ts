import t from 'tap';
import { carries, choose, contentWords, countedTerms, kindOf, questionWords, sentencesOf, stem, synonymsOf } from '../../server/assistant/choose.ts';

const passages = [
  { title: 'Shipping', heading: 'Delivery times', text: 'Orders are packed in our warehouse. Standard delivery takes 3 to 5 days within the country. Express delivery is available at checkout.' },
  { title: 'Shipping', heading: 'Parcel size', text: 'Parcels are weighed at the warehouse. A parcel can weigh at most 30 kg. Heavier parcels are split.' },
  { title: 'Payments', heading: 'Declined cards', text: 'Cards are checked when you pay. A card is declined because the bank flagged the payment as unusual. Call your bank to approve it.' },
  { title: 'Account', heading: 'Reset your password', text: 'Passwords are stored hashed.\n\n1. Open the sign-in page.\n2. Click "Forgot password".\n3. Enter your e-mail address.' },
];

t.test('each question kind picks the sentence that carries what it asks for', async (t) => {
  t.equal(kindOf('How long does delivery take?'), 'duration');
  t.equal(kindOf('How much can a parcel weigh?'), 'quantity');
  t.equal(kindOf('Why was my card declined?'), 'reason');
  t.equal(kindOf('How do I reset my password?'), 'steps');

  const long = choose('How long does delivery take?', passages);
  t.equal(long?.passage.heading, 'Delivery times');
  t.match(long?.quote, /3 to 5 days/);
  t.equal(long?.kind, 'duration');

  const much = choose('How much can a parcel weigh?', passages);
  t.equal(much?.passage.heading, 'Parcel size');
  t.match(much?.quote, /30 kg/);

  const why = choose('Why was my card declined when paying?', passages);
  t.equal(why?.passage.heading, 'Declined cards');
  t.match(why?.quote, /because the bank flagged/);

  const how = choose('How do I reset my password?', passages);
  t.equal(how?.passage.heading, 'Reset your password');
  t.match(how?.quote, /Forgot password/);
});

t.test('a question the passages do not answer is refused', async (t) => {
  t.equal(choose('Do you sell gift vouchers for birthdays?', passages), null);
  t.equal(choose('What is your refund policy for damaged furniture?', passages), null);
  t.equal(choose('the and of', passages), null, 'no content words');
  t.equal(choose('How long does delivery take?', []), null, 'no passages');
});

t.test('confidence is the share of the question the chosen passage covers', async (t) => {
  const c = choose('How long does standard delivery take?', passages);
  t.ok(c && c.confidence > 0.5 && c.confidence <= 1, `confidence ${c?.confidence}`);
});

t.test('weighed by the whole corpus, a word no passage holds makes the question one the passages do not answer', async (t) => {
  const corpus = (holding: Record<string, number>) => ({ passages: 200, holding: new Map(Object.entries(holding)) });
  // 'parcel' and 'weigh' are common in this corpus (counts are by stem); 'robot' is in no passage.
  const common = { parcel: 40, weigh: 30, robot: 0 };
  t.equal(choose('How much can a parcel weigh by robot?', passages, undefined, corpus(common)), null, 'the rare word decides');
  const much = choose('How much can a parcel weigh?', passages, undefined, corpus(common));
  t.match(much?.quote, /30 kg/, 'without it the question is answered');
  // A number no passage holds (say, a ticket's) weighs nothing rather than refusing the question.
  t.match(choose('How much can a parcel weigh 4711?', passages, undefined, corpus({ ...common, 4711: 0 }))?.quote, /30 kg/);
});

t.test('a how long or how many question whose best quote has no duration or number is refused', async (t) => {
  const only = [{ title: 'Shipping', heading: 'Couriers', text: 'Parcels leave the warehouse with a courier. The courier delivers parcels to your door.' }];
  t.equal(choose('How long does the courier take to deliver parcels?', only), null);
  t.ok(choose('Who delivers parcels to my door?', only), 'a question of another kind is answered from the same passage');
});

t.test('a why question prefers the section headed as a cause over the one restating the symptom', async (t) => {
  const page = [
    { title: 'Uploads fail', heading: 'Summary', text: 'Uploads of large files fail with an error after a minute.' },
    { title: 'Uploads fail', heading: 'Cause', text: 'Large uploads fail because the proxy in front of the server limits request bodies.' },
  ];
  t.equal(choose('Why do large uploads fail?', page)?.passage.heading, 'Cause');
  // Even when the summary holds more of the question's words and the cause gives its purpose, not 'because'.
  t.equal(choose('Why are my old alerts missing from reports?', [
    { title: 'Old alerts missing', heading: 'Summary', text: 'Reports show nothing before a date, although the alerts appeared at the time.' },
    { title: 'Old alerts missing', heading: 'Cause', text: 'To keep tables fast, old closed alerts are deleted after a retention period.' },
  ])?.passage.heading, 'Cause');
});

t.test('a why question is a reason even when it names a limit; superlatives and versions ask for a figure', async (t) => {
  t.equal(kindOf('Why does my board say it exceeds the issue limit?'), 'reason');
  t.equal(kindOf('What is the largest parcel you ship?'), 'quantity');
  t.equal(kindOf('Which Java versions are supported?'), 'quantity');
  t.equal(kindOf('When will my order arrive?'), 'duration');
  t.equal(kindOf('When is the hook called?'), 'other', 'when something happens is not a measure');
});

t.test('a when-will question whose quote holds no time is refused', async (t) => {
  const only = [{ title: 'Releases', heading: 'Version 2', text: 'Version 2 removes the old export. The old export is deprecated and will be removed in the version 2 release.' }];
  t.equal(choose('When will version 2 be released?', only), null);
  const dated = [{ title: 'Releases', heading: 'Version 2', text: 'Version 2 is released in 3 months. It removes the old export.' }];
  t.match(choose('When will version 2 be released?', dated)?.quote, /3 months/);
});

t.test('irregular forms meet the verb they inflect', async (t) => {
  t.equal(stem('kept'), stem('keep'));
  t.equal(stem('sent'), stem('sends'));
  const page = [
    { title: 'Alerts', heading: 'Database', text: 'The database should stay close to the nodes. Latency under 5 ms is best.' },
    { title: 'Alerts', heading: 'Retention', text: 'Closed alerts are kept for 13 months by default.' },
  ];
  t.match(choose('How long are closed alerts kept?', page)?.quote, /13 months/);
});

t.test('each line of a passage (a list item, a table row) is a sentence of its own', async (t) => {
  t.same(sentencesOf('Install it with pip\nHTTPX requires Python 3.9+'), ['Install it with pip', 'HTTPX requires Python 3.9+']);
  t.same(sentencesOf('One. Two sentences here.'), ['One.', 'Two sentences here.']);
});

t.test('a stop word written in capitals is a content word', async (t) => {
  t.ok(contentWords('send a body with a GET request').includes('get'));
  t.notOk(contentWords('how do I get a refund').includes('get'));
  t.notOk(contentWords('HOW DO I GET A REFUND').includes('get'), 'a question all in capitals reads as lower case');
  const page = [
    { title: 'Requests', heading: 'Streaming', text: 'You can send a request body as a stream of bytes.' },
    { title: 'Requests', heading: 'Methods', text: 'You cannot send a body with GET or HEAD: they are specified as not supporting a request body.' },
  ];
  t.match(choose('Why can I not send a request body with a GET request?', page)?.quote, /not supporting a request body/);
});

t.test('a sentence opening with its purpose answers a why question', async (t) => {
  t.ok(carries('reason', 'To keep boards responsive, a board renders only 5,000 issues or fewer.'));
  t.notOk(carries('reason', 'Boards render issues in columns.'));
});

t.test('an instruction inside a sentence answers a how-to question', async (t) => {
  t.ok(carries('steps', 'To route all traffic to a proxy, pass the proxy URL to the client.'));
  t.ok(carries('steps', 'You can change the default handling with the follow_redirects parameter.'));
  t.ok(carries('steps', 'For large downloads you may want to use streaming responses.'));
  t.notOk(carries('steps', 'Redirects are not followed by default.'));
});

t.test('a question asking for a figure (the largest, which version) is refused when the quote holds none', async (t) => {
  const only = [{ title: 'Downloads', heading: 'Large downloads', text: 'Large downloads can stream the response body rather than load it into memory.' }];
  t.equal(choose('What is the largest response body a download can have?', only), null);
  t.ok(choose('How do I stream a large download?', only), 'a how-to question about the same passage is answered');
});

t.test('a comparative or superlative of a stop word is a stop word too', async (t) => {
  t.same(contentWords('a bigger log limit'), contentWords('a big log limit'));
  t.same(contentWords('the largest and longest files'), contentWords('the files'));
  t.ok(contentWords('the latest release').includes(stem('latest')), 'a word that only looks graded stays');
  // Without the rule, 'bigger' (in no passage) would weigh most and refuse a question the page answers.
  const page = [{ title: 'Build logs', heading: 'Log limit', text: 'Each job log is limited to 25 MB. Support can raise the log limit to 100 MB.' }];
  const corpus = { passages: 100, holding: new Map([['bigger', 0], [stem('log'), 10], [stem('limit'), 12]]) };
  t.match(choose('Can I get a bigger log limit?', page, undefined, corpus)?.quote, /100 MB/);
});

t.test('the content team\'s synonyms make a word meet its group\'s other members', async (t) => {
  const synonyms = synonymsOf([['memory', 'ram'], ['sign in', 'log in', 'login']]);
  t.same(contentWords('plenty of RAM', synonyms), contentWords('plenty of memory', synonyms));
  t.same(contentWords('how to log in', synonyms), contentWords('login', synonyms), 'a phrase of a group is one term');
  t.same(questionWords('how much memory', synonyms).get(contentWords('memory', synonyms)[0] as string), ['memory', 'ram'], 'the corpus is asked for every member');
  const page = [
    { title: 'Build agent', heading: 'Capabilities', text: 'Declare the memory-hungry tools the agent has, so jobs go to it.' },
    { title: 'Build agent', heading: 'Before you begin', text: 'The machine needs 2 CPU cores and 4 GB of RAM for the agent.' },
  ];
  const corpus = { passages: 100, holding: new Map([[stem('memory'), 8], [stem('agent'), 10]]), synonyms };
  t.match(choose('How much memory does the agent need?', page, undefined, corpus)?.quote, /4 GB of RAM/);
  t.notMatch(choose('How much memory does the agent need?', page, undefined, { ...corpus, synonyms: undefined })?.quote ?? '', /4 GB of RAM/, 'without the synonyms the other section is quoted');
});

t.test('a figure question is answered only by a quote about what it counts', async (t) => {
  t.same(countedTerms('what is the default maximum number of redirects httpx will follow'), [stem('redirects'), stem('httpx')]);
  t.same(countedTerms('how many keep-alive connections are allowed'), [stem('keep'), stem('alive'), stem('connections')]);
  t.same(countedTerms('how long does it take'), []);
  const page = [{ title: 'Pool', heading: 'Pool size', text: 'Each host gets its own pool. The pool of each host holds at most 100 connections by default.' }];
  const corpus = { passages: 100, holding: new Map([[stem('host'), 2], [stem('default'), 40], [stem('maximum'), 30], [stem('number'), 30], [stem('requests'), 60]]) };
  t.match(choose('What is the default maximum number of connections for a host?', page, undefined, corpus)?.quote, /100 connections/);
  // Without the rule the pool's figure would answer a question about requests.
  t.equal(choose('What is the default maximum number of requests for a host?', page, undefined, corpus), null);
});

t.test('a doubled consonant before -ing or -ed, and -ied or -ies, meet the plain word', async (t) => {
  t.equal(stem('logging'), stem('log'));
  t.equal(stem('stopped'), stem('stop'));
  t.equal(stem('installed'), stem('install'), 'a doubled l stays');
  t.equal(stem('retried'), stem('retry'));
  t.equal(stem('retries'), stem('retry'));
});

t.test('a how-to question is not answered by a command in a sentence naming none of its words', async (t) => {
  const long = ' The switch has been there since the first release and is documented on the settings page with every value it takes.';
  const page = [{ title: 'Agent', heading: 'Diagnostics', text: `The agent keeps a job log.${long} Debug output goes to that log, next to the job's own lines.${long} `
    + `Run the cleanup task weekly. The agent restarts after the cleanup task has run, and its service comes back within the hour.${long}` }];
  const quote = choose('How do I read the debug output of the agent?', page)?.quote ?? '';
  t.match(quote, /Debug output goes to that log/);
});

t.test('"see" asks for the content no more than "get" or "know" does', async (t) => {
  t.notOk(contentWords('how do I see the audit log').includes('see'));
  const page = [{ title: 'Security', heading: 'Audit log', text: 'The audit log is under Settings, Security, and lists every sign-in.' }];
  const corpus = { passages: 100, holding: new Map([['see', 1], [stem('audit'), 10], [stem('log'), 10]]) };
  t.match(choose('How do I see the audit log?', page, undefined, corpus)?.quote, /audit log is under/);
});

t.test('a setting\'s name makes an instruction of a sentence of prose, not of a line of code', async (t) => {
  t.ok(carries('steps', 'One example is the local_address configuration which is only available here.'));
  t.notOk(carries('steps', '{event_type}.{event_name}.failed, {"exception": <...>}'));
  const page = [
    { title: 'Uploads', heading: 'Events', text: 'Each upload reports events to the hook.\n{event_type}.{event_name}.failed, {"exception": <...>}' },
    { title: 'Uploads', heading: 'Transfers', text: 'Uploads are sent in parts. Connection retries are available here. A part is retried three times when the upload drops.' },
  ];
  t.match(choose('How do I retry uploads that fail?', page)?.quote, /retried three times/);
});

t.test('a release number of something the question names tells which version, without the word', async (t) => {
  const pages = [
    { title: 'Overview', heading: null, text: 'The tool is a command line client for Linux 6, which speaks HTTP/1.1 and HTTP/2 to the server.' },
    { title: 'Overview', heading: 'Installation', text: 'Install the tool with the package manager. The tool requires Linux 5.10+ and a writable home folder.' },
  ];
  const corpus = { passages: 100, holding: new Map([[stem('linux'), 3], [stem('version'), 2], [stem('tool'), 40]]) };
  const which = choose('Which linux version does the tool need?', pages, undefined, corpus);
  t.equal(which?.passage.heading, 'Installation');
  t.match(which?.quote, /Linux 5\.10\+/);
  // A release number of something else says nothing of the version asked for.
  t.equal(choose('Which linux version does the tool need?', [pages[0] as typeof pages[number]], undefined, corpus), null);
});

t.test('a question about the default is answered by the sentence that states it', async (t) => {
  const pages = [
    { title: 'Signatures', heading: null, text: 'The tool checks every download against trusted keys before it installs anything. To do this the tool reads a keyring.' },
    { title: 'Signatures', heading: 'Choosing a keyring', text: 'Pass --keyring to use keys of your own. By default the system keyring is read.' },
  ];
  const corpus = { passages: 100, holding: new Map([[stem('keyring'), 4], [stem('tool'), 12], [stem('read'), 15], [stem('default'), 30]]) };
  // Without the rule the overview, holding more of the question's words, is quoted.
  const which = choose('Which keyring does the tool read by default?', pages, undefined, corpus);
  t.equal(which?.passage.heading, 'Choosing a keyring');
  t.match(which?.quote, /By default the system keyring/);
  t.equal(choose('Which keyring does the tool read?', pages, undefined, corpus)?.passage.heading, null, 'a question not about the default is not swayed');
});
