/** An error with an HTTP status the error handler shows as it is (4xx), with headers to add (Allow). */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(readonly statusCode: number, readonly code: string, message: string, readonly headers: Record<string, string> = {}) {
    super(message);
  }
}

/** The search API, the helpdesk's API (/api/) and other machine routes answer errors in JSON; pages answer in HTML. */
export function isApiUrl(url: string): boolean {
  return url.startsWith('/gateway/api/') || url.startsWith('/api/');
}
