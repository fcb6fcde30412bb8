import t from 'tap';
import { choose, kindOf } from '../../server/assistant/choose.ts';

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
});
