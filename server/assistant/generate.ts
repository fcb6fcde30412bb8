/**
 * The generated answer: one OpenAI-compatible chat-completions call (a hosted API, Ollama, vLLM),
 * made only when the operator configured AI_BASE_URL and AI_MODEL, with the retrieved passages as the
 * only source it may use. The answer streams (server-sent events from the model) within a time limit;
 * anything else (refused, slow, malformed) is a GenerationError the caller turns into the extractive answer.
 */
import type { Retrieved } from './retrieve.ts';

export interface ModelConfig {
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
}

export class GenerationError extends Error {
  constructor(readonly reason: 'unavailable' | 'slow' | 'failed', message: string) {
    super(message);
  }
}

const SYSTEM = 'You answer questions about a product help centre using only the numbered passages given. '
  + 'Cite every statement with the passage number in square brackets, like [1]. '
  + 'If the passages do not answer the question, say so in one sentence. Be brief: at most five sentences.';

export function promptOf(question: string, passages: Retrieved[]) {
  const sources = passages.map((p, i) => `[${i + 1}] ${p.title}${p.heading ? ` — ${p.heading}` : ''}\n${p.text}`).join('\n\n');
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `Passages:\n\n${sources}\n\nQuestion: ${question}` },
  ];
}

/** Asks the model; `onText` receives each streamed piece. Resolves with the whole text. */
export async function generate(model: ModelConfig, question: string, passages: Retrieved[],
  onText: (piece: string) => void = () => {}, signal?: AbortSignal): Promise<string> {
  const limit = AbortSignal.timeout(model.timeoutMs);
  const both = signal ? AbortSignal.any([limit, signal]) : limit;
  let response: Response;
  try {
    response = await fetch(`${model.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream, application/json',
        ...(model.apiKey ? { authorization: `Bearer ${model.apiKey}` } : {}) },
      body: JSON.stringify({ model: model.model, messages: promptOf(question, passages), stream: true, temperature: 0.2 }),
      signal: both,
    });
  } catch (err) {
    throw limit.aborted ? new GenerationError('slow', 'the model did not answer in time') : new GenerationError('unavailable', `the model could not be reached: ${(err as Error).message}`);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new GenerationError('failed', `the model answered HTTP ${response.status}`);
  }
  try {
    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('text/event-stream')) {
      // A server that ignores `stream` answers one JSON completion.
      const body = await response.json() as { choices?: { message?: { content?: unknown } }[] };
      const text = body.choices?.[0]?.message?.content;
      if (typeof text !== 'string' || !text.trim()) throw new GenerationError('failed', 'the model answered no text');
      onText(text);
      return text;
    }
    let text = '';
    let buffer = '';
    const decoder = new TextDecoder();
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, end).trim();
        buffer = buffer.slice(end + 1);
        if (!line.startsWith('data:')) continue;
        const data = line.slice(5).trim();
        if (data === '[DONE]') return finish(text);
        let piece: unknown;
        try {
          piece = (JSON.parse(data) as { choices?: { delta?: { content?: unknown } }[] }).choices?.[0]?.delta?.content;
        } catch {
          throw new GenerationError('failed', 'the model streamed something that is not JSON');
        }
        if (typeof piece === 'string' && piece) {
          text += piece;
          onText(piece);
        }
      }
    }
    return finish(text);
  } catch (err) {
    if (err instanceof GenerationError) throw err;
    throw limit.aborted ? new GenerationError('slow', 'the model did not finish in time') : new GenerationError('failed', `the model's answer broke off: ${(err as Error).message}`);
  }
}

function finish(text: string): string {
  if (!text.trim()) throw new GenerationError('failed', 'the model answered no text');
  return text;
}
