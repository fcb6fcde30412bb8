import { useEffect, useState } from 'react';

/**
 * False on the server and in the first client render (so hydration finds the server's markup), true
 * from the render after hydration on. An island renders its native, script-free form while this is
 * false and its enhanced form once it is true.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
