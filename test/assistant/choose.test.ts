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
