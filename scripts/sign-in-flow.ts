/**
 * Signs in as a browser would without JavaScript, for the benchmarks: B/login, the issuer's redirects,
 * the sign-in form, the callback; returns the Cookie header that the signed-in pages are then asked with.
 * `send` is one HTTP exchange (in process with app.inject, or over the network with fetch).
 */
export interface Exchange {
  status: number;
  location?: string | undefined;
  setCookies: string[];
  body: string;
}

export type Send = (request: { method: 'GET' | 'POST'; url: string; headers: Record<string, string>; body?: string }) => Promise<Exchange>;

/**
 * `jar` (optional) holds the cookies across calls, as a browser does: with the issuer's own session in it
 * from an earlier sign-in, the issuer may sign in again without asking (the form is then not found).
 */
export async function signInCookie(send: Send, origin: string, email: string, password: string, identityBase = '/auth',
  jar = new Map<string, string>()): Promise<string> {
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const take = (res: Exchange) => {
    for (const line of res.setCookies) {
      const pair = line.split(';')[0] ?? '';
      const at = pair.indexOf('=');
      const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
      if (value === '' || /max-age=0/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  };
  const get = async (url: string) => take(await send({ method: 'GET', url: new URL(url, origin).href, headers: { cookie: cookie() } }));
  const follow = async (res: Exchange) => {
    for (let i = 0; i < 10 && res.status >= 300 && res.status < 400 && res.location; i++) res = await get(res.location);
    return res;
  };

  const form = await follow(await get(`${identityBase}/login?continue=%2F`));
  const action = /<form[^>]*method="post"[^>]*action="([^"]+)"/.exec(form.body)?.[1];
  if (!action) throw new Error(`no sign-in form at the end of the redirects (status ${form.status})`);
  const fields = new URLSearchParams({ email, password });
  const posted = take(await send({
    method: 'POST', url: new URL(action.replace(/&amp;/g, '&'), origin).href, body: fields.toString(),
    headers: { cookie: cookie(), origin, 'content-type': 'application/x-www-form-urlencoded' },
  }));
  await follow(posted);
  const session = jar.get('sp_session');
  if (!session) throw new Error(`signing in as the given account did not give a session (the form answered ${posted.status})`);
  return `sp_session=${session}`;
}

/** `send` over the network: redirects are not followed, so each step's cookies are seen. */
export const fetchSend: Send = async ({ method, url, headers, body }) => {
  const res = await fetch(url, { method, headers, body, redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location') ?? undefined, setCookies: res.headers.getSetCookie(), body: await res.text() };
};
