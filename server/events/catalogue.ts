/**
 * The analytics events Signpost records (spec §7), and what each one puts in the columns of
 * `analytics_events` (migration 13). `key` is the event's one sub-dimension and `value` its one
 * measure; both are summed per day into `analytics_daily`, so every figure the insights show is a
 * count or a sum over (day, type, path, product, term, key).
 *
 * `source` says who records it: 'server' events are counted by Signpost itself while it serves the
 * request (they work without JavaScript); 'client' events come from the analytics island.
 * `term` is always the masked search term (e-mail-like text replaced, spec §5).
 */
export interface EventKind {
  readonly source: 'server' | 'client';
  /** What `key` holds ('' when unused). */
  readonly key: string;
  /** What `value` holds (null when unused). */
  readonly value: string;
}

export const EVENT_KINDS = {
  page_view: { source: 'server', key: "'' (locale prefix when not the default: 'ja')", value: 'unused' },
  search: { source: 'server', key: "'results' or 'no_results'", value: 'number of results' },
  spelling_rewrite: {
    source: 'server',
    key: "'shown' when the results are for the rewritten term, 'declined' when the visitor asked for the original term",
    value: 'unused',
  },
  results_rendered: { source: 'client', key: "''", value: 'response time, ms' },
  search_result_click: { source: 'client', key: "result position, 1-based ('1', '2', …)", value: 'time to click, ms' },
  was_this_helpful_click: {
    source: 'server',
    key: "'yes' or 'no' (an answer); 'reason' when the visitor gives the reason for a 'No' already counted",
    value: 'unused (data.reason holds the No reason)',
  },
  page_scrolled: { source: 'client', key: "deepest quarter reached: '25', '50', '75' or '100'", value: 'depth ratio 0–1' },
  page_dwelled: { source: 'client', key: "''", value: 'dwell time reported this time, ms' },
  dropdown: { source: 'client', key: "the dropdown's name, then ':open' or ':close'", value: 'unused' },
  page_tree: { source: 'client', key: "'open' or 'close'", value: 'unused' },
  footer_click: { source: 'client', key: 'the link target path or URL', value: 'unused' },
  featured_card_click: { source: 'client', key: 'the card link', value: 'unused' },
  resource_card_click: { source: 'client', key: 'the card link', value: 'unused' },
  tab: { source: 'client', key: 'the tab label', value: 'unused' },
  filter: { source: 'client', key: "'name=value'", value: 'unused' },
  pagination: { source: 'client', key: 'the page number', value: 'unused' },
  reset: { source: 'client', key: "''", value: 'unused' },
  widget_evaluation: { source: 'server', key: "the widget, then ':shown' or ':hidden'", value: 'unused' },
  show_more: { source: 'client', key: 'the list that grew', value: 'unused' },
  video: { source: 'client', key: "'start', 'end' or 'error'", value: 'seconds into the video' },
  support_request: {
    source: 'server', key: 'the form id',
    value: "unused (path is the page it was filed from; term the search whose results page's contact link led to the form; session_id the visit, when the analytics script added it to the form)",
  },
  assistant_question: {
    source: 'server', key: "'answered', or 'unanswered' when the help content had no answer",
    value: 'passages cited (term is the masked question, query_id the id the answer carries)',
  },
  assistant_rendered: { source: 'client', key: "''", value: "unused (query_id is the answer's question id: ties the visit to the question)" },
} as const satisfies Record<string, EventKind>;

export type EventType = keyof typeof EVENT_KINDS;

export const EVENT_TYPES = Object.keys(EVENT_KINDS) as EventType[];

export function isEventType(name: string): name is EventType {
  return Object.hasOwn(EVENT_KINDS, name);
}
