import { useCallback, useEffect, useRef, useState } from 'react';
import type { AnswerView } from './assistant-answer.tsx';

export type StreamState =
  | { kind: 'idle' }
  | { kind: 'streaming'; text: string }
  | { kind: 'done'; answer: AnswerView }
  | { kind: 'failed' };

/**
 * An answer streamed from the assistant over server-sent events (server/assistant/routes.tsx):
 * `text` pieces of a generated answer, `reset` when it is abandoned for the passages, then `answer`.
 */
export function useAnswerStream(): [StreamState, (url: string) => void] {
  const [state, setState] = useState<StreamState>({ kind: 'idle' });
  const source = useRef<EventSource | null>(null);
  useEffect(() => () => source.current?.close(), []);
  const ask = useCallback((url: string) => {
    source.current?.close();
    const events = new EventSource(url);
    source.current = events;
    setState({ kind: 'streaming', text: '' });
    events.addEventListener('text', (e) => {
      const piece = JSON.parse((e as MessageEvent<string>).data) as string;
      setState((s) => (s.kind === 'streaming' ? { kind: 'streaming', text: s.text + piece } : s));
    });
    events.addEventListener('reset', () => setState({ kind: 'streaming', text: '' }));
    events.addEventListener('answer', (e) => {
      setState({ kind: 'done', answer: JSON.parse((e as MessageEvent<string>).data) as AnswerView });
      events.close();
    });
    const fail = () => {
      setState((s) => (s.kind === 'done' ? s : { kind: 'failed' }));
      events.close();
    };
    events.addEventListener('failed', fail);
    events.onerror = fail;
  }, []);
  return [state, ask];
}
