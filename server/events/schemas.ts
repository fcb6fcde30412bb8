/**
 * What the analytics island may send (POST /api/events): a batch with the visitor's ids from browser
 * storage and a list of events, each checked on its own against the common shape and its type's rule.
 */
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { EVENT_KINDS, isEventType, type EventType } from './catalogue.ts';

/** The largest body the endpoint reads, and the most events one batch may hold. */
export const MAX_BATCH_BYTES = 32 * 1024;
export const MAX_BATCH_EVENTS = 50;

/** A session or persistent id as the island makes them. */
export const VISIT_ID = /^[A-Za-z0-9_-]{8,64}$/;
const Id = Type.String({ pattern: VISIT_ID.source });

export const BatchSchema = Type.Object({
  sessionId: Type.Optional(Id),
  persistentId: Type.Optional(Id),
  events: Type.Array(Type.Unknown(), { minItems: 1, maxItems: MAX_BATCH_EVENTS }),
}, { additionalProperties: false });
export type Batch = Static<typeof BatchSchema>;

const Text = (maxLength: number) => Type.String({ maxLength });

export const ClientEventSchema = Type.Object({
  type: Text(40),
  /** When it happened, milliseconds since the epoch by the browser's clock. */
  at: Type.Optional(Type.Number()),
  path: Type.String({ pattern: '^/', maxLength: 500 }),
  key: Type.Optional(Text(200)),
  value: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  term: Type.Optional(Text(200)),
  queryId: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9-]{1,64}$' })),
  data: Type.Optional(Type.Record(Type.String({ maxLength: 40 }), Type.Union([Text(200), Type.Number(), Type.Boolean(), Type.Null()]), { maxProperties: 10 })),
}, { additionalProperties: false });
export type ClientEvent = Static<typeof ClientEventSchema>;

/** Each client type's own rule on key and value (the catalogue says what they mean). */
const RULES: Partial<Record<EventType, { key?: RegExp; value?: 'required' }>> = {
  results_rendered: { value: 'required' },
  search_result_click: { key: /^[1-9]\d{0,3}$/, value: 'required' },
  page_scrolled: { key: /^(25|50|75|100)$/, value: 'required' },
  page_dwelled: { key: /^$/, value: 'required' },
  dropdown: { key: /^.{1,100}:(open|close)$/ },
  page_tree: { key: /^(open|close)$/ },
  footer_click: { key: /^.+$/ },
  featured_card_click: { key: /^.+$/ },
  resource_card_click: { key: /^.+$/ },
  tab: { key: /^.+$/ },
  filter: { key: /^[^=]+=.*$/ },
  pagination: { key: /^[1-9]\d{0,4}$/ },
  reset: { key: /^$/ },
  show_more: { key: /^.+$/ },
  video: { key: /^(start|end|error)$/, value: 'required' },
};

export type Refusal = 'malformed' | 'unknown_type' | 'server_type' | 'invalid';

export interface CheckedEvent { ok: true; event: ClientEvent & { type: EventType } }
export interface RefusedEvent { ok: false; reason: Refusal; field?: string; message: string }

/** One event of a batch: accepted as it is, or refused with the reason and the field at fault. */
export function checkEvent(raw: unknown): CheckedEvent | RefusedEvent {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, reason: 'malformed', message: 'not an object' };
  const type = (raw as { type?: unknown }).type;
  if (typeof type !== 'string' || !isEventType(type)) return { ok: false, reason: 'unknown_type', field: 'type', message: 'no such event type' };
  if (EVENT_KINDS[type].source !== 'client') return { ok: false, reason: 'server_type', field: 'type', message: 'recorded by the server only' };
  const [error] = Value.Errors(ClientEventSchema, raw);
  if (error) return { ok: false, reason: 'invalid', field: error.instancePath.slice(1) || 'event', message: error.message };
  const event = raw as ClientEvent & { type: EventType };
  if (event.value !== undefined && event.value !== null && !Number.isFinite(event.value)) {
    return { ok: false, reason: 'invalid', field: 'value', message: 'not a finite number' };
  }
  const rule = RULES[type];
  if (rule?.key && !rule.key.test(event.key ?? '')) return { ok: false, reason: 'invalid', field: 'key', message: `not a ${type} key` };
  if (rule?.value === 'required' && typeof event.value !== 'number') return { ok: false, reason: 'invalid', field: 'value', message: `${type} needs a value` };
  return { ok: true, event };
}
