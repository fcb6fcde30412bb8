/**
 * First-party analytics in the browser (docs/ 'Analytics', spec §7, §9). Loaded on every page by
 * islands/main.ts; does nothing when the browser says Do-Not-Track or Global Privacy Control. Events
 * are queued and sent to POST /api/events in batches (at most MAX_BATCH, every FLUSH_MS once the
 * browser is idle, and when the page is hidden or left). While the page stays, a batch goes with fetch,
 * so a failed send is logged to the console (spec §8 'Analytics send failure: logged'); as it is hidden
 * or left, with navigator.sendBeacon (which outlives the page, but never says how it went), or fetch
 * with keepalive where the beacon is refused.
 * Ids: a session id in sessionStorage, a persistent id in localStorage; no cookie.
 *
 * What is counted: scroll depth (quarters, 250 ms debounce), dwell (active time, checked every 500 ms,
 * idle after 30 s without input, reported after 5 s, then after twice as long each time), search result
 * clicks (position, term, time to click, the search's queryId, from the results list's data attributes),
 * the results' response time, clicks inside elements marked `data-analytics="<type>"` (key from
 * `data-analytics-key`, else the link's address), and the toggles of header dropdowns, the page tree
 * and 'Show more' lists.
 */

export const ENDPOINT = '/api/events';
export const MAX_BATCH = 50;
export const FLUSH_MS = 5000;
/**
 * The disclosures a toggle belongs to, by the markup their views already give them: a header dropdown
 * (data-menu, its name), the page tree, a 'Show more' (the list it controls).
 */
function disclosureOf(control: Element): { type: 'dropdown' | 'page_tree' | 'show_more'; name?: string } | undefined {
  const menu = control.closest('[data-menu]');
  if (menu) return { type: 'dropdown', name: menu.getAttribute('data-menu') ?? 'menu' };
  if (control.closest('.page-tree-disclosure')) return { type: 'page_tree' };
  if (control.matches('.show-more-toggle') || control.closest('.show-more')) return { type: 'show_more', name: control.getAttribute('aria-controls') ?? 'list' };
  return undefined;
}

/** Spec §9 timings; a test page may shorten them through window.signpostAnalyticsTimings before this loads. */
const TIMINGS = {
  scrollDebounceMs: 250,
  idleTimeoutMs: 30_000,
  dwellCheckMs: 500,
  dwellFirstReportMs: 5000,
  flushMs: FLUSH_MS,
  ...(window as Window & { signpostAnalyticsTimings?: Partial<Record<string, number>> }).signpostAnalyticsTimings,
};

interface Event {
  type: string;
  at: number;
  path: string;
  key?: string;
  value?: number;
  term?: string;
  queryId?: string;
  data?: Record<string, string | number | boolean>;
}

function optedOut(): boolean {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean; msDoNotTrack?: string };
  const win = window as Window & { doNotTrack?: string };
  return nav.globalPrivacyControl === true || nav.doNotTrack === '1' || nav.doNotTrack === 'yes' || win.doNotTrack === '1' || nav.msDoNotTrack === '1';
}

function newId(): string {
  return crypto.randomUUID ? crypto.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

/** An id kept in the storage, made on first use; a fresh one each time where storage is refused. */
function storedId(storage: () => Storage, name: string): string {
  try {
    const kept = storage().getItem(name);
    if (kept && /^[A-Za-z0-9_-]{8,64}$/.test(kept)) return kept;
    const made = newId();
    storage().setItem(name, made);
    return made;
  } catch {
    return newId();
  }
}

const whenIdle = (task: () => void) => {
  if ('requestIdleCallback' in window) requestIdleCallback(task, { timeout: 2000 });
  else task();
};

export function start(earlier: readonly MouseEvent[] = []): void {
  if (optedOut()) return;
  const sessionId = storedId(() => sessionStorage, 'signpost-session');
  const persistentId = storedId(() => localStorage, 'signpost-visitor');
  const path = location.pathname;
  const queue: Event[] = [];
  let timer: number | undefined;

  const notSent = (count: number, why: string) => console.warn(`analytics: ${count} event(s) not sent: ${why}`);
  const send = (leaving: boolean) => {
    if (timer !== undefined) { clearTimeout(timer); timer = undefined; }
    while (queue.length > 0) {
      const events = queue.splice(0, MAX_BATCH);
      const body = JSON.stringify({ sessionId, persistentId, events });
      if (leaving) {
        let queued = false;
        try { queued = navigator.sendBeacon?.(ENDPOINT, body) ?? false; } catch { queued = false; }
        if (queued) continue;
      }
      // A string goes as text/plain: no preflight, and the server reads it as JSON.
      fetch(ENDPOINT, { method: 'POST', body, keepalive: true, headers: { 'content-type': 'text/plain;charset=UTF-8' } })
        .then((response) => { if (!response.ok) notSent(events.length, `HTTP ${response.status}`); })
        .catch((error: unknown) => notSent(events.length, error instanceof Error ? error.message : String(error)));
    }
  };
  const record = (event: Omit<Event, 'at' | 'path'> & { path?: string }) => {
    queue.push({ at: Date.now(), path, ...event });
    if (queue.length >= MAX_BATCH) send(false);
    // Sent when the browser is idle, so a batch never competes with what the visitor is doing.
    else timer ??= window.setTimeout(() => whenIdle(() => send(false)), TIMINGS.flushMs);
  };
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') send(true); });
  window.addEventListener('pagehide', () => send(true));

  // Scroll depth: the deepest quarter reached, once each.
  let deepest = 0;
  let scrollTimer: number | undefined;
  const measure = () => {
    const doc = document.documentElement;
    const seen = window.scrollY + window.innerHeight;
    // At the end is the end, whatever fraction of a pixel a zoomed or scaled page leaves short of it.
    const ratio = seen >= doc.scrollHeight - 2 ? 1 : seen / doc.scrollHeight;
    const quarter = Math.floor(ratio * 4) * 25;
    if (quarter > deepest && quarter >= 25) {
      deepest = quarter;
      record({ type: 'page_scrolled', key: String(quarter), value: Math.round(ratio * 100) / 100 });
    }
  };
  window.addEventListener('scroll', () => {
    clearTimeout(scrollTimer);
    scrollTimer = window.setTimeout(measure, TIMINGS.scrollDebounceMs);
  }, { passive: true });

  // Dwell: time the page is visible and the visitor active, reported after 5 s, 10 s, 20 s more, …
  let lastInput = Date.now();
  let active = 0;
  let nextReport = TIMINGS.dwellFirstReportMs;
  for (const name of ['scroll', 'mousemove', 'keydown', 'pointerdown', 'touchstart', 'focusin']) {
    window.addEventListener(name, () => { lastInput = Date.now(); }, { passive: true, capture: true });
  }
  window.setInterval(() => {
    if (document.visibilityState !== 'visible' || Date.now() - lastInput > TIMINGS.idleTimeoutMs) return;
    active += TIMINGS.dwellCheckMs;
    if (active >= nextReport) {
      record({ type: 'page_dwelled', key: '', value: active });
      active = 0;
      nextReport *= 2;
    }
  }, TIMINGS.dwellCheckMs);

  // The visit, for a support form: so insights can tie a request to the searches before it.
  for (const input of document.querySelectorAll<HTMLInputElement>('input[data-analytics-visit]')) input.value = sessionId;

  // An assistant's answer shown (on the page, or later by the widget): its question's id, so insights
  // can list the pages this visit opened after a question the help content had no answer to.
  const answered = new Set<string>();
  const answers = () => {
    for (const el of document.querySelectorAll<HTMLElement>('[data-assistant-id]')) {
      const id = el.dataset.assistantId ?? '';
      if (!id || answered.has(id)) continue;
      answered.add(id);
      record({ type: 'assistant_rendered', key: '', queryId: id });
    }
  };
  answers();
  if (document.querySelector('[data-island^="assistant"]')) {
    new MutationObserver(answers).observe(document.body, { childList: true, subtree: true });
  }

  // Search results: their response time, and clicks with position, term and time to click.
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  let shownAt = performance.now();
  const results = () => document.querySelector<HTMLElement>('[data-query-id]');
  // Server-rendered results are shown from when the page arrived; results swapped in, from their swap.
  const rendered = (ms: number, at = performance.now()) => {
    const list = results();
    if (!list?.dataset.queryId) return;
    shownAt = at;
    record({ type: 'results_rendered', key: '', value: Math.round(ms), queryId: list.dataset.queryId, term: list.dataset.term ?? '' });
  };
  rendered(navigation ? navigation.responseEnd - navigation.requestStart : 0, navigation?.responseEnd);
  // The search enhancement swaps the results region (htmx): time from request to swap.
  let requested = 0;
  document.addEventListener('htmx:beforeRequest', () => { requested = performance.now(); });
  document.addEventListener('htmx:afterSettle', () => { if (requested) rendered(performance.now() - requested); requested = 0; });

  const clicked = (e: MouseEvent) => {
    const target = e.target instanceof Element ? e.target : null;
    const link = target?.closest<HTMLAnchorElement>('a[data-position]');
    const list = link?.closest<HTMLElement>('[data-query-id]');
    if (link && list) {
      record({
        type: 'search_result_click', key: link.dataset.position ?? '', value: Math.round(Math.max(0, e.timeStamp - shownAt)),
        term: list.dataset.term ?? '', queryId: list.dataset.queryId ?? '', data: { href: link.getAttribute('href') ?? '' },
      });
      return;
    }
    // A disclosure (header dropdown, page tree, 'Show more'): its state once the click has changed it.
    const control = target?.closest<HTMLElement>('button[aria-expanded], summary');
    const disclosure = control ? disclosureOf(control) : undefined;
    if (control && disclosure) {
      window.setTimeout(() => {
        const open = control.tagName === 'SUMMARY' ? (control.parentElement as HTMLDetailsElement | null)?.open : control.getAttribute('aria-expanded') === 'true';
        const state = open ? 'open' : 'close';
        // 'Show more' counts the list that grew; a dropdown its name and state; the page tree its state.
        if (disclosure.type === 'show_more') { if (open) record({ type: 'show_more', key: disclosure.name ?? 'list' }); }
        else record({ type: disclosure.type, key: disclosure.name ? `${disclosure.name}:${state}` : state });
      }, 0);
      return;
    }
    const marked = target?.closest<HTMLElement>('[data-analytics]');
    if (!marked) return;
    const type = marked.dataset.analytics ?? '';
    const anchor = target?.closest<HTMLAnchorElement>('a[href]');
    // A reset has no key (server/events/catalogue.ts); the others their mark's key, else the link's address.
    const key = type === 'reset' ? '' : marked.dataset.analyticsKey ?? (anchor ? anchor.getAttribute('href') ?? '' : '');
    if (key || type === 'reset') record({ type, key });
  };
  // Clicks made while this chunk loaded (islands/main.ts kept them), then every later one.
  for (const e of earlier) clicked(e);
  document.addEventListener('click', clicked);

  // Videos: start, end and errors, with the time into the video.
  for (const [name, key] of [['play', 'start'], ['ended', 'end'], ['error', 'error']] as const) {
    document.addEventListener(name, (e) => {
      if (e.target instanceof HTMLVideoElement) record({ type: 'video', key, value: Math.round(e.target.currentTime) });
    }, true);
  }
  trackEmbeddedVideos(record);
}

/**
 * Videos in bodies are players of the site's video hosts in iframes (`.video-frame`), which a page cannot
 * look into. A video starts when the visitor moves into its player (the page loses focus to that
 * iframe); the players that announce their state by postMessage (the Vimeo and YouTube protocols) also
 * tell start, end and error, with the time into the video when they say it. One start per player.
 */
function trackEmbeddedVideos(record: (event: Omit<Event, 'at' | 'path'>) => void) {
  const started = new WeakSet<HTMLIFrameElement>();
  const frames = () => [...document.querySelectorAll<HTMLIFrameElement>('.video-frame iframe')];
  const report = (frame: HTMLIFrameElement, key: 'start' | 'end' | 'error', seconds?: number) => {
    if (key === 'start') {
      if (started.has(frame)) return;
      started.add(frame);
    }
    record({ type: 'video', key, value: typeof seconds === 'number' && Number.isFinite(seconds) ? Math.round(seconds) : 0, data: { src: frame.src.split('?')[0] ?? '' } });
  };
  window.addEventListener('blur', () => {
    window.setTimeout(() => {
      const active = document.activeElement;
      if (active instanceof HTMLIFrameElement && active.closest('.video-frame')) report(active, 'start');
    }, 0);
  });
  window.addEventListener('message', (e) => {
    const frame = frames().find((f) => f.contentWindow === e.source);
    if (!frame) return;
    const state = playerState(e.data);
    if (state) report(frame, state.key, state.seconds);
  });
}

/** What a player's message says, in the Vimeo ({event: 'play'|'ended'|'error'}) or YouTube (onStateChange, infoDelivery, onError) protocol. */
export function playerState(raw: unknown): { key: 'start' | 'end' | 'error'; seconds?: number } | undefined {
  let data = raw;
  if (typeof raw === 'string') {
    try { data = JSON.parse(raw); } catch { return undefined; }
  }
  if (!data || typeof data !== 'object') return undefined;
  const m = data as { event?: unknown; info?: unknown; data?: { seconds?: unknown } };
  const seconds = typeof m.data?.seconds === 'number' ? m.data.seconds : undefined;
  const at = (s: number | undefined) => (s === undefined ? {} : { seconds: s });
  switch (m.event) {
    case 'play': return { key: 'start', ...at(seconds) };
    case 'ended': case 'finish': return { key: 'end', ...at(seconds) };
    case 'error': case 'onError': return { key: 'error' };
    case 'onStateChange': return m.info === 1 ? { key: 'start' } : m.info === 0 ? { key: 'end' } : undefined;
    case 'infoDelivery': {
      const info = m.info as { playerState?: unknown; currentTime?: unknown } | null;
      const time = typeof info?.currentTime === 'number' ? info.currentTime : undefined;
      return info?.playerState === 1 ? { key: 'start', ...at(time) } : info?.playerState === 0 ? { key: 'end', ...at(time) } : undefined;
    }
    default: return undefined;
  }
}
