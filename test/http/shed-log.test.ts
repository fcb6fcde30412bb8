import t from 'tap';
import pino from 'pino';
import { ShedLog } from '../../server/http/shed-log.ts';

const logger = () => {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => { lines.push(JSON.parse(line) as Record<string, unknown>); } });
  return { log, lines };
};

t.test('a run of shed requests is one line when it starts and one sum per interval, not a line each', async (t) => {
  const { log, lines } = logger();
  // An interval no test waits for: the sums are written by flush(), as the timer would.
  const shedLog = new ShedLog(log, 3_600_000);
  t.teardown(() => shedLog.close());
  shedLog.shed('searches: too much work is waiting', '/gateway/api/help-content/v2/search');
  t.equal(lines.length, 1, 'the first shed request is logged at once');
  t.match(lines[0], { level: 40, msg: 'overloaded; request shed', url: '/gateway/api/help-content/v2/search', reason: 'searches: too much work is waiting' });

  for (let i = 0; i < 500; i++) shedLog.shed(i % 5 === 0 ? 'eventLoopUtilization' : 'searches: too much work is waiting', `/search-results/?searchTerm=w${i}`);
  t.equal(lines.length, 1, 'those shed after it in the interval are counted, not written');

  shedLog.flush();
  t.equal(lines.length, 2, 'the interval ends with one line');
  t.match(lines[1], { level: 40, msg: 'overloaded; more requests shed', shed: 500, byReason: { 'searches: too much work is waiting': 400, eventLoopUtilization: 100 } });
  t.notMatch(JSON.stringify(lines[1]), /searchTerm/, 'the sum names no URL');

  shedLog.shed('eventLoopUtilization', '/a');
  shedLog.flush();
  t.match(lines[2], { shed: 1, byReason: { eventLoopUtilization: 1 } }, 'shedding that goes on is summed each interval');

  shedLog.flush();
  t.equal(lines.length, 3, 'an interval with nothing shed writes nothing');
  shedLog.shed('searches: too much work is waiting', '/b');
  t.equal(lines.length, 4, 'after a quiet interval the next shed request has a line of its own again');
  t.match(lines[3], { msg: 'overloaded; request shed', url: '/b' });
});

t.test('closing writes the sum still pending', async (t) => {
  const { log, lines } = logger();
  const shedLog = new ShedLog(log, 3_600_000);
  shedLog.shed('a', '/1');
  shedLog.shed('a', '/2');
  shedLog.shed('b', '/3');
  shedLog.close();
  t.equal(lines.length, 2);
  t.match(lines[1], { shed: 2, byReason: { a: 1, b: 1 } });
});
