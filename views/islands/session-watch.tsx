import { useEffect, useState } from 'react';
import { useHydrated } from './use-hydrated.ts';

export interface SessionWatchProps {
  /** GET: 204 while the session lasts, 401 once it has ended (spec §7). */
  heartbeatUrl: string;
  /** The sign-in address; `continue` is added for the page the person is on when the message shows. */
  loginUrl: string;
  /** How often the heartbeat is asked while the tab is visible (ms). */
  intervalMs: number;
  ended: string;
  signIn: string;
}

/**
 * Session watch (spec §7, §8): on a signed-in page, asks the heartbeat now and then while the tab is
 * visible (a hidden tab asks nothing, and asks at once when it is shown or focused again). When the
 * session has ended (signed out elsewhere, idle, revoked), an alert says so and offers sign-in back to
 * this page, instead of the person finding out at their next click. Without scripts it renders nothing:
 * the next page shows the signed-out header.
 */
export function SessionWatch({ heartbeatUrl, loginUrl, intervalMs, ended, signIn }: SessionWatchProps) {
  const hydrated = useHydrated();
  const [over, setOver] = useState(false);
  const [returnTo, setReturnTo] = useState('');
  useEffect(() => {
    if (!hydrated || over) return;
    let stopped = false;
    let inFlight = false;
    const ask = async () => {
      if (stopped || inFlight || document.visibilityState !== 'visible') return;
      inFlight = true;
      try {
        const res = await fetch(heartbeatUrl, { credentials: 'same-origin', cache: 'no-store', headers: { accept: 'application/json' } });
        // Only a definite 'no session': a network failure or a 503 says nothing about the session.
        if (res.status === 401 && !stopped) {
          setReturnTo(location.pathname + location.search + location.hash);
          setOver(true);
        }
      } catch {
        // Offline or the server restarting: asked again at the next tick.
      } finally {
        inFlight = false;
      }
    };
    const timer = setInterval(() => void ask(), Math.max(1000, intervalMs));
    const onVisible = () => void ask();
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('focus', onVisible);
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('focus', onVisible);
    };
  }, [hydrated, over, heartbeatUrl, intervalMs]);

  const href = `${loginUrl}?continue=${encodeURIComponent(returnTo || '/')}`;
  return (
    <div className="session-watch" role="alert">
      {over ? (
        <p>
          {ended} <a href={href}>{signIn}</a>
        </p>
      ) : null}
    </div>
  );
}
