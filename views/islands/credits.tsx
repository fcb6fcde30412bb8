import { useLayoutEffect, useState } from 'react';
import { flushSync } from 'react-dom';

/** Spec §9 credits timings: the ship, the pause before the credits fade in, the credits, their fading out. */
export const SHIP_MS = 3000;
export const FADE_IN_DELAY_MS = 500;
export const SHOWN_MS = 15000;
export const REMOVE_MS = 2500;

export interface CreditsProps {
  heading: string;
  people: { name: string; role: string }[];
}

type Phase = 'ship' | 'waiting' | 'shown' | 'hiding';

/**
 * The hidden credits overlay (spec §2, §4): the ship for 3 s, then the credits fade in 0.5 s later and
 * scroll, fade out after 15 s and are removed 2.5 s after that (`onDone`); Escape ends it at once.
 * Decoration: aria-hidden, nothing in it takes focus or a click. Movement is CSS only, so
 * prefers-reduced-motion shows and hides the same things at the same times without any.
 * Rendered only in the browser, when window.signpostCredits() is called (islands/credits.tsx).
 */
export function Credits({ heading, people, onDone }: CreditsProps & { onDone: () => void }) {
  const [phase, setPhase] = useState<Phase>('ship');
  useLayoutEffect(() => {
    // Each step is drawn when its timer fires, not on a later frame.
    const to = (next: Phase) => () => flushSync(() => setPhase(next));
    const timers = [
      setTimeout(to('waiting'), SHIP_MS),
      setTimeout(to('shown'), SHIP_MS + FADE_IN_DELAY_MS),
      setTimeout(to('hiding'), SHIP_MS + FADE_IN_DELAY_MS + SHOWN_MS),
      setTimeout(onDone, SHIP_MS + FADE_IN_DELAY_MS + SHOWN_MS + REMOVE_MS),
    ];
    const escape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onDone();
    };
    document.addEventListener('keydown', escape);
    return () => {
      timers.forEach(clearTimeout);
      document.removeEventListener('keydown', escape);
    };
  }, [onDone]);
  return (
    <div className="credits-overlay" aria-hidden="true" data-phase={phase}>
      {phase === 'ship' ? (
        <svg className="credits-ship" viewBox="0 0 120 60" width="120" height="60" focusable="false">
          <path fill="#dfe1e6" d="M10 30 L40 14 H86 Q112 18 118 30 Q112 42 86 46 H40 Z" />
          <path fill="#0c66e4" d="M52 22 H82 Q96 24 100 30 Q96 36 82 38 H52 Z" />
          <path fill="#f5cd47" d="M0 24 L12 30 L0 36 Z" />
          <path fill="#8590a2" d="M40 14 L30 2 H48 L60 14 Z M40 46 L30 58 H48 L60 46 Z" />
        </svg>
      ) : (
        <div className={phase === 'shown' ? 'credits-list is-shown' : 'credits-list'}>
          <div className="credits-scroll">
            <p className="credits-heading">{heading}</p>
            <ul>
              {people.map((p, i) => (
                <li key={i}><span className="credits-name">{p.name}</span> <span className="credits-role">{p.role}</span></li>
              ))}
            </ul>
          </div>
        </div>
      )}
    </div>
  );
}
