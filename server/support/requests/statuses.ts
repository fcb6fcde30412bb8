/** A request's statuses (the helpdesk's words, POST /api/requests/{reference}/status): open until it says otherwise. */
export const REQUEST_STATUSES = ['open', 'in-progress', 'waiting-for-customer', 'resolved', 'closed'] as const;
export type RequestStatus = typeof REQUEST_STATUSES[number];

export const isRequestStatus = (value: unknown): value is RequestStatus =>
  typeof value === 'string' && (REQUEST_STATUSES as readonly string[]).includes(value);

/** The longest note a status update may carry. */
export const MAX_NOTE_LENGTH = 2000;
