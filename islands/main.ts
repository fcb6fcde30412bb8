/**
 * Browser entry: finds the server-rendered islands (data-island="name") and loads each one's module when
 * the island says (data-hydrate, views/island.tsx): at once ('load', the default), when it comes near the
 * viewport ('visible'), when the browser is idle ('idle'), or on the first click or change of one of its
 * controls ('interaction'), which is then replayed on the hydrated island. Every island is its own chunk
 * (esbuild splitting), React a chunk they share, so a page whose islands all wait downloads neither.
 * One broken island never breaks the others or the page, which works without any of this.
 * data-island-ready says 'waiting' until an island's moment comes, 'pending' while it loads and
 * hydrates (or is enhanced), then 'true', or 'failed'.
 *
 * An island module's default export takes the island's element: React islands hydrate the component
 * the server rendered there (islands/hydrate.tsx); search and support-form enhance the markup in place.
 */
import type { IslandName } from '../views/islands/names.ts';

type IslandModule = { default: (element: HTMLElement) => void | Promise<void> };

const islands: Record<IslandName, () => Promise<IslandModule>> = {
  'site-header': () => import('./site-header.tsx'),
  'platform-tabs': () => import('./platform-tabs.tsx'),
  'page-tree': () => import('./page-tree.tsx'),
  siblings: () => import('./siblings.tsx'),
  'show-more': () => import('./show-more.tsx'),
  'version-selector': () => import('./version-selector.tsx'),
  feedback: () => import('./feedback.tsx'),
  credits: () => import('./credits.tsx'),
  'auto-submit': () => import('./auto-submit.tsx'),
  'body-tabs': () => import('./body-tabs.tsx'),
  'assistant-widget': () => import('./assistant-widget.tsx'),
  'assistant-summary': () => import('./assistant-summary.tsx'),
  'session-watch': () => import('./session-watch.tsx'),
  search: () => import('./search.ts').then((m) => ({ default: m.enhanceSearch })),
  'support-form': () => import('./support-form.ts').then((m) => ({ default: m.enhanceSupportForm })),
};

/**
 * Islands that wait for an interaction but must be live at once in a state the visitor chose earlier:
 * a sidebar collapsed on a wide screen (SIDEBAR_KEY and PHONE_QUERY of views/islands/page-tree.tsx,
 * repeated here so this entry imports no module React comes with).
 */
const atOnceWhen: Partial<Record<IslandName, () => boolean>> = {
  'page-tree': () => {
    try {
      return sessionStorage.getItem('sac.sidebar.expanded') === 'false' && !matchMedia('(max-width: 767.98px)').matches;
    } catch {
      return false;
    }
  },
};

/** A 'visible' island starts this far ahead of the viewport, so it is ready when it is seen. */
const VISIBLE_MARGIN = '200px 0px';
/** The controls an 'interaction' island's first click or change is taken from and replayed on. */
const CONTROLS = 'summary, button, select, input, textarea, a[href]';

const isIsland = (name: string): name is IslandName => Object.hasOwn(islands, name);
const started = new WeakMap<HTMLElement, Promise<void>>();

/** Loads and hydrates an island, once; resolves when it is ready, rejects when it failed. */
function hydrate(element: HTMLElement, name: IslandName): Promise<void> {
  let run = started.get(element);
  if (run) return run;
  element.dataset.islandReady = 'pending';
  // Through a promise, so a throw, a failed chunk load and a rejection are caught alike.
  run = islands[name]().then((module) => module.default(element)).then(
    () => { element.dataset.islandReady = 'true'; },
    (error: unknown) => {
      element.dataset.islandReady = 'failed';
      console.error(`island ${name} failed`, error);
      throw error;
    },
  );
  run.catch(() => undefined);
  started.set(element, run);
  return run;
}

const controlOf = (element: HTMLElement, target: EventTarget | null): HTMLElement | null => {
  const control = target instanceof Element ? target.closest<HTMLElement>(CONTROLS) : null;
  // A control of an island inside this one (a select of the search form) is that island's.
  return control && control.closest('[data-island]') === element ? control : null;
};

const shown = (el: Element) => {
  const check = (el as Element & { checkVisibility?: () => boolean }).checkVisibility;
  return check ? check.call(el) : el.getClientRects().length > 0;
};
const hasValue = (el: Element): el is HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement =>
  el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement;
const visibleControls = (element: HTMLElement) => [...element.querySelectorAll<HTMLElement>(CONTROLS)].filter(shown);

/**
 * Where a control of the server's markup is once the island has hydrated: itself when React kept it,
 * else the control with its data-replay key or id, else the one at its place among the shown controls
 * (a <summary> becomes the button at the same place; closed panels show no controls either way).
 */
function counterpart(element: HTMLElement, control: HTMLElement, key: string, index: number): HTMLElement | null {
  if (element.contains(control)) return control;
  if (key) {
    const keyed = [...element.querySelectorAll<HTMLElement>('[data-replay], [id]')].find((el) => (el.dataset.replay ?? el.id) === key);
    if (keyed) return keyed;
  }
  return index >= 0 ? visibleControls(element)[index] ?? null : null;
}

/**
 * An 'interaction' island: its first click on a control that hydration changes (a <summary>, a button,
 * a link marked data-replay) is held, the island hydrated, and the click given to the same control of
 * the hydrated island, with the focus where it was; a change (a select) is given again the same way.
 * Plain links and form submissions go on as they are: they need no island. Focus or a pointer over
 * the island starts the download early. When the island fails, the held click is given to its native
 * control, which works as without scripts from then on.
 */
function onInteraction(element: HTMLElement, name: IslandName): void {
  const events = ['click', 'change', 'input', 'submit'] as const;
  const early = ['focusin', 'pointerover'] as const;
  const prefetch = () => {
    for (const type of early) element.removeEventListener(type, prefetch, true);
    void islands[name]().catch(() => undefined);
  };
  const stop = () => {
    for (const type of events) element.removeEventListener(type, first, true);
  };
  const first = (event: Event) => {
    if (started.has(element)) return stop(); // hydrated meanwhile (signpostHydrateAll): React has the event
    if (event.type === 'submit') {
      // A form of the island sent before it hydrated (Enter in the search field, a select of an island
      // inside it that submits): sent again by the hydrated island, which may do it in place.
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || !element.contains(form)) return;
      const submitter = (event as SubmitEvent).submitter;
      event.preventDefault();
      event.stopImmediatePropagation();
      stop();
      waiting.delete(element);
      hydrate(element, name).then(() => form.requestSubmit(submitter && element.contains(submitter) ? submitter : null), () => form.submit());
      return;
    }
    const control = controlOf(element, event.target);
    // A select's change is what it acts on, not the input event before it.
    if (!control || (event.type === 'input' && control instanceof HTMLSelectElement)) return;
    if (event.type === 'click') {
      // A field's click is not what it acts on: its input or change is.
      if (control.matches('select, textarea, input:not([type="submit"], [type="button"], [type="checkbox"], [type="radio"])')) return;
      const link = control instanceof HTMLAnchorElement;
      const submit = (control instanceof HTMLButtonElement || control instanceof HTMLInputElement) && control.type === 'submit';
      // A link or a submit button only when marked: otherwise the browser's own action is what hydration would do.
      if ((link || (submit && !(control.form && element.contains(control.form)))) && !control.dataset.replay) return;
      if (event instanceof MouseEvent && (event.ctrlKey || event.metaKey || event.shiftKey || event.altKey || event.button !== 0)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
    }
    stop();
    waiting.delete(element);
    const key = control.dataset.replay ?? control.id;
    const index = visibleControls(element).indexOf(control);
    const replayOn = () => {
      const target = counterpart(element, control, key, index);
      if (!target) return null;
      // Hydration replaced the control the focus was on: it goes to its successor, as if it had been there;
      // focus the visitor has moved elsewhere meanwhile stays where it is.
      const active = document.activeElement;
      if (!active || active === document.body || active === control) target.focus({ preventScroll: true });
      return target;
    };
    hydrate(element, name).then(() => {
      const target = replayOn();
      if (!target) return;
      if (event.type === 'click') target.click();
      else {
        // A field hydration replaced takes the value the visitor left in it, read now: what was typed
        // while the island loaded is kept. A field kept as it was already holds it.
        if (target !== control && hasValue(control) && hasValue(target)) target.value = control.value;
        target.dispatchEvent(new Event(event.type, { bubbles: true }));
      }
    }, () => {
      // A failed island is the server's markup again, and nothing holds its clicks any more: the held
      // click does what it does without scripts (a <details> opens, a link is followed, a form is sent).
      if (event.type === 'click') replayOn()?.click();
    });
  };
  for (const type of events) element.addEventListener(type, first, true);
  for (const type of early) element.addEventListener(type, prefetch, true);
}

/** The element's boxes: an island's wrapper is `display: contents` and has none of its own. */
const boxesOf = (element: HTMLElement): Element[] => {
  const children = [...element.children].filter((child) => !(child instanceof HTMLScriptElement));
  return children.length > 0 ? children : [element];
};

const waiting = new Map<HTMLElement, IslandName>();

export function enhanceAll(root: ParentNode = document): void {
  // The page's head marked it already (views/layout/scripts-class.tsx); a page without that mark gets it here.
  document.documentElement.classList.add('js-enabled');
  document.documentElement.dataset.islands = 'running';
  let observer: IntersectionObserver | undefined;
  for (const element of root.querySelectorAll<HTMLElement>('[data-island]')) {
    const name = element.dataset.island ?? '';
    if (!isIsland(name) || element.dataset.islandReady) continue;
    const when = atOnceWhen[name]?.() ? 'load' : element.dataset.hydrate ?? 'load';
    if (when === 'load' || (when === 'visible' && !('IntersectionObserver' in window))) {
      void hydrate(element, name).catch(() => undefined);
      continue;
    }
    element.dataset.islandReady = 'waiting';
    waiting.set(element, name);
    const go = () => {
      waiting.delete(element);
      void hydrate(element, name).catch(() => undefined);
    };
    if (when === 'idle') {
      if ('requestIdleCallback' in window) requestIdleCallback(go, { timeout: 5000 });
      else setTimeout(go, 200);
    } else if (when === 'visible') {
      observer ??= new IntersectionObserver((entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          const island = entry.target.closest<HTMLElement>('[data-island]');
          if (!island) continue;
          for (const box of boxesOf(island)) observer?.unobserve(box);
          const waited = waiting.get(island);
          if (waited) {
            waiting.delete(island);
            void hydrate(island, waited).catch(() => undefined);
          }
        }
      }, { rootMargin: VISIBLE_MARGIN });
      for (const box of boxesOf(element)) observer.observe(box);
    } else {
      onInteraction(element, name);
    }
  }
}

enhanceAll();

/**
 * Every island still waiting, hydrated now; resolves when each is ready or has failed. For automation
 * (the browser journeys) that works with the enhanced page without first touching each island.
 */
(window as Window & { signpostHydrateAll?: () => Promise<void> }).signpostHydrateAll = async () => {
  const all = [...waiting].map(([element, name]) => hydrate(element, name).catch(() => undefined));
  waiting.clear();
  await Promise.all(all);
};

// First-party analytics on every page, in a chunk of its own (islands/analytics.ts), asked for once the
// page has been drawn so it never competes with what the first paint needs. Clicks made before it
// arrives are kept and handed to it, so none is missed; its batches go when the browser is idle; a
// failure is silent.
const earlyClicks: MouseEvent[] = [];
const keepClick = (event: MouseEvent) => { earlyClicks.push(event); };
document.addEventListener('click', keepClick, true);
const startAnalytics = () => {
  import('./analytics.ts').then((m) => m.start(earlyClicks), () => undefined)
    .finally(() => { document.removeEventListener('click', keepClick, true); earlyClicks.length = 0; });
};
// A frame callback runs before the browser paints that frame; a task queued from it runs after. A hidden
// page paints nothing (and runs no frame callbacks), so it starts at once.
if (document.visibilityState === 'hidden') startAnalytics();
else requestAnimationFrame(() => { setTimeout(startAnalytics, 0); });

// The hidden credits overlay (spec §2): nothing of it loads until this is called.
(window as Window & { signpostCredits?: () => Promise<void> }).signpostCredits = () => import('./credits.tsx').then((m) => m.default());
