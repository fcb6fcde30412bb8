import t from 'tap';
import { loadConfig, ConfigError } from '../../server/config.ts';

t.test('defaults make a working embedded set-up', async (t) => {
  const c = loadConfig({});
  t.equal(c.port, 3000);
  t.equal(c.databaseUrl, undefined);
  t.match(c.dataDir, /\/data$/);
  t.equal(c.importOnStart, true);
});

t.test('bad values are refused naming the variable', async (t) => {
  t.throws(() => loadConfig({ PORT: 'eighty' }), ConfigError);
  t.throws(() => loadConfig({ PORT: '70000' }), { message: /PORT/ });
  t.throws(() => loadConfig({ DATABASE_URL: 'mysql://x' }), { message: /DATABASE_URL/ });
  t.throws(() => loadConfig({ PREVIEW_TOKEN: 'short' }), { message: /PREVIEW_TOKEN/ });
  t.throws(() => loadConfig({ IMPORT_ON_START: 'maybe' }), { message: /IMPORT_ON_START: expected true or false/ });
  for (const bad of ['10MB', '0', '-5', '1.5', '1e3']) {
    t.throws(() => loadConfig({ CONTENT_FILE_MAX_BYTES: bad }), { message: `CONTENT_FILE_MAX_BYTES: expected a whole number of bytes above 0, got "${bad}"` });
  }
  t.doesNotThrow(() => loadConfig({ CONTENT_FILE_MAX_BYTES: '2048' }));
  t.throws(() => loadConfig({ LOG_LEVEL: 'loud' }), { message: /LOG_LEVEL/ });
  for (const name of ['SEARCH_MAX_CONCURRENT', 'SEARCH_QUEUE_TIMEOUT_MS', 'DB_MAX_CONCURRENT', 'DB_QUEUE_TIMEOUT_MS', 'AI_MAX_CONCURRENT', 'ASSISTANT_RATE_LIMIT', 'ASSISTANT_NETWORK_RATE_LIMIT']) {
    t.throws(() => loadConfig({ [name]: '0' }), { message: new RegExp(`${name}: `) });
    t.throws(() => loadConfig({ [name]: 'many' }), { message: new RegExp(`${name}: `) });
  }
  t.throws(() => loadConfig({ SEARCH_QUEUE_MAX: '-1' }), { message: /SEARCH_QUEUE_MAX: / });
  t.throws(() => loadConfig({ DB_QUEUE_MAX: '-1' }), { message: /DB_QUEUE_MAX: / });
  const client = { client_id: 'signpost-b', client_secret: 'signpost-b-secret-0123', redirect_uris: ['https://help-b.example.test/auth/callback'] };
  for (const name of [42, '', 'x'.repeat(101)]) {
    t.throws(() => loadConfig({ OIDC_PROVIDER_CLIENTS: JSON.stringify([{ ...client, client_name: name }]) }), { message: /OIDC_PROVIDER_CLIENTS: / }, `client_name ${JSON.stringify(name).slice(0, 12)} refused`);
  }
  t.equal(loadConfig({ OIDC_PROVIDER_CLIENTS: JSON.stringify([{ ...client, client_name: 'Help B' }]) }).oidcProviderClients[0]?.client_name, 'Help B');
  t.equal(loadConfig({ SEARCH_QUEUE_MAX: '0' }).searchQueueMax, 0, 'no queue: past the running searches, shed at once');
});

t.test('TRUST_PROXY: off by default; on, a hop count, or proxy addresses', async (t) => {
  t.equal(loadConfig({}).trustProxy, false);
  t.equal(loadConfig({ TRUST_PROXY: 'true' }).trustProxy, true);
  t.equal(loadConfig({ TRUST_PROXY: 'false' }).trustProxy, false);
  t.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
  t.same(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1' }).trustProxy, ['10.0.0.1', '192.168.0.0/16', '::1']);
  t.throws(() => loadConfig({ TRUST_PROXY: 'proxy.example' }), { message: /TRUST_PROXY: .*"proxy\.example"/ });
  t.throws(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' }), { message: /TRUST_PROXY/ });
});

t.test('shutdown and load-shedding settings have defaults and are checked', async (t) => {
  const c = loadConfig({});
  t.equal(c.shutdownTimeoutMs, 10_000);
  t.equal(c.overloadMaxEventLoopDelayMs, 1000);
  t.equal(c.overloadMaxEventLoopUtilization, 0);
  t.equal(c.overloadMaxHeapUsedMb, undefined);
  t.equal(c.overloadRetryAfterS, 10);
  t.throws(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: 'soon' }), { message: /SHUTDOWN_TIMEOUT_MS/ });
  t.throws(() => loadConfig({ OVERLOAD_MAX_EVENT_LOOP_UTILIZATION: '1.5' }), { message: /OVERLOAD_MAX_EVENT_LOOP_UTILIZATION/ });
  t.throws(() => loadConfig({ OVERLOAD_MAX_HEAP_USED_MB: '-1' }), { message: /OVERLOAD_MAX_HEAP_USED_MB/ });
  t.throws(() => loadConfig({ OVERLOAD_RETRY_AFTER_S: '0' }), { message: /OVERLOAD_RETRY_AFTER_S/ });
});

t.test('ACCESS_LOG: info by default, debug or off, anything else refused', async (t) => {
  t.equal(loadConfig({}).accessLog, 'info');
  t.equal(loadConfig({ ACCESS_LOG: 'debug' }).accessLog, 'debug');
  t.equal(loadConfig({ ACCESS_LOG: 'OFF' }).accessLog, 'off');
  t.throws(() => loadConfig({ ACCESS_LOG: 'verbose' }), { message: /ACCESS_LOG/ });
});
