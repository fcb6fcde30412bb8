import t from 'tap';
import { Gate, Overloaded } from '../../server/http/gate.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

t.test('a caller that would wait past timeoutMs at the pace work finishes is refused at once', async (t) => {
  const gate = new Gate('work', { max: 1, queueMax: 10, timeoutMs: 20 });
  // One piece of work that held its place at least 60 ms: the pace the gate expects.
  await gate.run(() => sleep(60));
  t.ok(gate.expectedWaitMs === 0, 'a free place: no wait');

  const release = await gate.acquire();
  t.ok(gate.expectedWaitMs >= 60, `the next caller would wait a whole piece of work (${gate.expectedWaitMs.toFixed(0)} ms)`);
  let settled = false;
  const refused = gate.acquire().finally(() => (settled = true));
  await t.rejects(refused, Overloaded, 'refused');
  t.ok(settled, 'while the place is still held: at once, not after waiting');
  t.equal(gate.queued, 0, 'nothing left waiting');
  t.equal(gate.refused, 1);
  release();
});

t.test('a caller whose expected wait is within timeoutMs waits its turn', async (t) => {
  const gate = new Gate('work', { max: 1, queueMax: 10, timeoutMs: 60_000 });
  await gate.run(() => sleep(5));
  const first = await gate.acquire();
  const order: number[] = [];
  const waiting = [1, 2].map((n) => gate.acquire().then((release) => {
    order.push(n);
    release();
  }));
  t.equal(gate.queued, 2, 'both wait');
  first();
  await Promise.all(waiting);
  t.same(order, [1, 2], 'in the order they came');
  t.equal(gate.active, 0);
  t.equal(gate.refused, 0);
});

t.test('a full queue refuses at once, whatever the pace', async (t) => {
  const gate = new Gate('work', { max: 1, queueMax: 1, timeoutMs: 60_000 });
  const first = await gate.acquire();
  const second = gate.acquire();
  await t.rejects(gate.acquire(), Overloaded);
  first();
  (await second)();
  t.equal(gate.active, 0);
});
