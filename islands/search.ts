/**
 * The search page with scripts (spec §4 search state, §5 search rules). The page already works as a GET
 * form and links; this makes it smoother: as-you-type search debounced 500 ms, Enter or the Search button
 * at once, never a request for an empty term; the results region, not the page, is swapped by htmx, for
 * the form and for the links inside the region; the URL is rewritten in place to the one the same search
 * makes without scripts. htmx is loaded here, by import(), so no other page downloads it.
 *
 * The htmx attributes live in the markup (views/pages/search-results-page.tsx): every request targets
 * the region, swaps its content, and replaces a request still running (hx-sync).
 */
import type { HtmxResponseInfo } from 'htmx.org';

/** Spec §9: search debounce. */
export const DEBOUNCE_MS = 500;
/** On the region while a search runs, with aria-busy="true". */
export const LOADING_CLASS = 'is-loading';

// htmx.org ships an ES module without "type": "module", so TypeScript types the value of import() as
// CommonJS (htmx one `default` further down); esbuild bundles the ES module, whose default is htmx.
type Htmx = typeof import('htmx.org').default;

const HTMX_CONFIG = {
  includeIndicatorStyles: false, // an inline <style>, which the CSP refuses; the region styles its own state
  allowEval: false, // the CSP allows no eval, and nothing here needs it
  allowScriptTags: false, // a swapped region never runs a script
  historyEnabled: false, // no snapshots in localStorage, no whole-body restores: the URL is only replaced, below
  selfRequestsOnly: true,
};

// The filter state the form carries as hidden fields, in the order the page renders them (searchHiddenFields
// in views/pages/search-results-page.tsx), with the server's defaults (stateFrom in server/search/page-state.ts).
const HIDDEN_FIELDS = ['deployment', 'product', 'version', 'contentType', 'category'] as const;
const DEFAULTS: Record<string, string> = { category: 'all', sort: 'relevance' };

/** A live region inserted with its text is not reliably announced; inserted empty and then filled, it is. */
const ANNOUNCE_DELAY_MS = 100;

export async function enhanceSearch(element: HTMLElement): Promise<void> {
  if (!(element instanceof HTMLFormElement)) throw new Error('data-island="search" belongs on the search <form>');
  const form = element;
  const term = form.elements.namedItem('searchTerm');
  if (!(term instanceof HTMLInputElement)) throw new Error('the search form has no searchTerm input');
  const targetSelector = form.closest('[data-hx-target]')?.getAttribute('data-hx-target') ?? '';
  const region = targetSelector ? document.querySelector<HTMLElement>(targetSelector) : null;
  if (!region) throw new Error(`the search form's data-hx-target (${targetSelector || 'none'}) names no element`);
  const errorMessage = form.dataset.errorMessage;
  if (!errorMessage) throw new Error('the search form has no data-error-message');

  const htmx = await loadHtmx();

  let timer: ReturnType<typeof setTimeout> | undefined;
  // The term the page was rendered for: what was typed before this ran (it runs on the first input) is new.
  let lastTerm = term.defaultValue.trim();
  // The request whose end ends the loading state: a replaced (aborted) one leaves it unchanged (spec §4).
  let current: XMLHttpRequest | null = null;

  const send = (path: string, source: Element) => {
    // Outcomes are handled by the htmx events below; the promise only rejects for the same reasons.
    htmx.ajax('get', path, { source }).catch(() => undefined);
  };

  const search = () => {
    clearTimeout(timer);
    const value = term.value.trim();
    if (!value) return; // spec §5: no search for an empty term, and the results shown stay
    lastTerm = value;
    send(form.getAttribute('action') ?? location.pathname, form);
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    search();
  });
  term.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (term.value.trim() !== lastTerm) search();
    }, DEBOUNCE_MS);
  });

  region.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a') : null;
    if (!link || !region.contains(link) || !plainClick(event, link) || !samePage(link, form)) return;
    event.preventDefault();
    send(link.href, link);
  });

  const setLoading = (on: boolean) => {
    region.classList.toggle(LOADING_CLASS, on);
    if (on) region.setAttribute('aria-busy', 'true');
    else region.removeAttribute('aria-busy');
  };

  document.addEventListener('htmx:beforeRequest', (event) => {
    const info = detailFor(event, region);
    if (!info) return;
    current = info.xhr;
    setLoading(true);
  });
  // hx-sync replace announces the abort on the region before htmx (listening on <body>) aborts.
  region.addEventListener('htmx:abort', () => {
    const replaced = current;
    current = null;
    if (replaced) quietAbort(replaced);
  });
  document.addEventListener('htmx:afterRequest', (event) => {
    const info = detailFor(event, region);
    if (!info || info.xhr !== current) return;
    current = null;
    setLoading(false);
    // The URL of the state asked for, as the form or link would have gone to it without scripts (spec §2),
    // replaced, not pushed; a failure too, as the page without scripts would show the error at that URL.
    const path = info.pathInfo.finalRequestPath;
    history.replaceState(history.state, '', path);
    const source = info.requestConfig.elt;
    if (info.successful !== true) showError(region, errorMessage);
    else announce(region);
    if (source !== form) {
      syncForm(form, term, path);
      if (!document.activeElement || document.activeElement === document.body) refocus(region, source);
    }
  });
}

/**
 * htmx reports every aborted request on the console as an error (htmx:afterRequest and htmx:sendAbort,
 * with no setting to say the abort was asked for). A search replaced by a newer one is the cancellation
 * hx-sync asked for, not a failure: htmx's own abort handling runs as it is (its lock is released and the
 * newer request goes on), with only its console report of this one abort left out.
 */
function quietAbort(xhr: XMLHttpRequest): void {
  const handler = xhr.onabort;
  if (!handler) return;
  xhr.onabort = function (this: XMLHttpRequest, event: ProgressEvent) {
    const report = console.error;
    console.error = () => undefined;
    try {
      handler.call(this, event);
    } finally {
      console.error = report;
    }
  };
}

async function loadHtmx(): Promise<Htmx> {
  // htmx 2 starts on DOMContentLoaded, or at once in a complete document. Evaluated in between, as an
  // import() resolving after DOMContentLoaded may be, it would never start (and hx-sync could not abort).
  if (document.readyState !== 'complete') {
    await new Promise((resolve) => window.addEventListener('load', resolve, { once: true }));
  }
  // htmx reads this as it starts, which is as the module is evaluated: too early to set htmx.config.
  if (!document.querySelector('meta[name="htmx-config"]')) {
    const meta = document.createElement('meta');
    meta.name = 'htmx-config';
    meta.content = JSON.stringify(HTMX_CONFIG);
    document.head.append(meta);
  }
  return (await import('htmx.org')).default as unknown as Htmx;
}

/** The htmx request details when the request is for the region. */
function detailFor(event: Event, region: HTMLElement): HtmxResponseInfo | undefined {
  const detail = (event as CustomEvent<HtmxResponseInfo | undefined>).detail;
  return detail?.target === region ? detail : undefined;
}

/** A click the browser would follow in this tab: other buttons, modifier keys, targets and downloads are left alone. */
function plainClick(event: MouseEvent, link: HTMLAnchorElement): boolean {
  return !event.defaultPrevented && event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey
    && !event.altKey && (link.target === '' || link.target === '_self') && !link.hasAttribute('download');
}

/** Links to the search page (tabs, filters, tag, reset, pagination); results lead elsewhere. */
function samePage(link: HTMLAnchorElement, form: HTMLFormElement): boolean {
  const to = new URL(link.href);
  const page = new URL(form.action);
  const path = (p: string) => p.replace(/\/$/, '');
  return to.origin === location.origin && path(to.pathname) === path(page.pathname);
}

/** The page's error state (spec §8: a fixed message, never details). */
function showError(region: HTMLElement, message: string): void {
  const error = document.createElement('p');
  error.className = 'search-error';
  error.setAttribute('role', 'alert');
  error.textContent = message;
  region.replaceChildren(error);
}

/** The new status line (role="status": the result count) is emptied and refilled, so it is announced. */
function announce(region: HTMLElement): void {
  const status = region.querySelector('[role="status"]');
  const text = status?.textContent ?? '';
  if (!status || !text) return;
  status.textContent = '';
  setTimeout(() => {
    status.textContent = text;
  }, ANNOUNCE_DELAY_MS);
}

/**
 * After a link changed the state, the form's hidden fields and sort follow it, as a page load would
 * render them, so the next typed search keeps the filters and its URL is the one without scripts.
 */
function syncForm(form: HTMLFormElement, term: HTMLInputElement, path: string): void {
  const params = new URL(path, location.href).searchParams;
  const value = (name: string) => params.get(name) ?? DEFAULTS[name] ?? '';
  for (const name of HIDDEN_FIELDS) {
    for (const field of form.querySelectorAll(`input[type="hidden"][name="${name}"]`)) field.remove();
  }
  const fields = HIDDEN_FIELDS.filter((name) => value(name) !== '').map((name) => {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value(name);
    return input;
  });
  term.after(...fields);
  const sort = form.elements.namedItem('sort');
  if (sort instanceof HTMLSelectElement) sort.value = value('sort');
}

/**
 * Focus went with the link the swap removed. It comes back to the same link in the new region (a tab
 * or filter keeps its place), or, after pagination or when the link is gone, to the results heading.
 */
function refocus(region: HTMLElement, source: Element): void {
  const href = source.getAttribute('href');
  const same = href && !source.closest('.search-pagination')
    ? region.querySelector<HTMLElement>(`a[href="${CSS.escape(href)}"]`)
    : null;
  const target = same ?? region.querySelector<HTMLElement>('h2') ?? region;
  if (!same) target.tabIndex = -1;
  target.focus();
}
