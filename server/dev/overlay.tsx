import { renderToStaticMarkup } from 'react-dom/server';
import { excerpt, lineOfText, type Problem, type SourceOf } from '../content/problems.ts';

/**
 * Live preview's problem overlay: a saved tree that cannot be imported, shown over the page instead of
 * its content (the page underneath is the last good content). Styled by /__dev/overlay.css.
 */
export function DevOverlay({ problems, source = () => undefined }: { problems: Problem[]; source?: SourceOf }) {
  const count = `${problems.length} problem${problems.length === 1 ? '' : 's'}`;
  return (
    <div id="signpost-dev-overlay" role="alert" aria-labelledby="signpost-dev-overlay-title">
      <h2 id="signpost-dev-overlay-title">The content tree has {count}</h2>
      <p>The last good content is still being served. Fix the files and this page reloads by itself.</p>
      <ul>
        {problems.map((p, i) => <li key={i}><Diagnostic problem={p} source={source} /></li>)}
      </ul>
    </div>
  );
}

/** One problem as the command line prints it: where, what, the source line with a caret, the hint. */
function Diagnostic({ problem: p, source }: { problem: Problem; source: SourceOf }) {
  const text = source(p.file);
  const line = text === undefined ? undefined : lineOfText(text, p.line);
  const shown = line !== undefined && line.trim() !== '' ? excerpt(line, p) : undefined;
  const number = String(p.line);
  return (
    <>
      <code>{p.file}:{p.line}{p.column ? `:${p.column}` : ''}: <strong className={p.severity === 'warning' ? 'warning' : 'error'}>{p.severity === 'warning' ? 'warning' : 'error'}</strong>: {p.field}: {p.reason}</code>
      {shown && <pre tabIndex={0}>{` ${number} | ${shown.text}`}{shown.caret ? `\n ${' '.repeat(number.length)} | ${shown.caret}` : ''}</pre>}
      {p.hint && <p className="hint">hint: {p.hint}</p>}
    </>
  );
}

/** The overlay's HTML; `source` gives the files' text for the lines shown (none: no lines). */
export function overlayHtml(problems: Problem[], source?: SourceOf): string {
  return renderToStaticMarkup(<DevOverlay problems={problems} {...(source ? { source } : {})} />);
}

export const OVERLAY_CSS = `#signpost-dev-overlay{position:fixed;inset:0;z-index:2147483647;overflow:auto;margin:0;padding:2rem;
background:#fff;color:#1d1d1d;font:16px/1.5 system-ui,sans-serif;border-top:6px solid #c9372c}
#signpost-dev-overlay h2{margin:0 0 .5rem;font-size:1.5rem;color:#ae2e24}
#signpost-dev-overlay ul{padding-left:1.25rem}
#signpost-dev-overlay code{font:14px/1.5 ui-monospace,monospace;white-space:pre-wrap;word-break:break-word}
#signpost-dev-overlay li{margin-bottom:1rem}
#signpost-dev-overlay pre{margin:.25rem 0;padding:.5rem;overflow-x:auto;background:#f4f5f7;color:#1d1d1d;border:0;font:14px/1.4 ui-monospace,monospace}
#signpost-dev-overlay .error{color:#ae2e24}
#signpost-dev-overlay .warning{color:#7f5f01}
#signpost-dev-overlay .hint{margin:.25rem 0}
`;

/**
 * The page's live-preview script: reloads when the content changed or its problems did, and when the
 * server comes back with another state after a restart.
 */
export const CLIENT_JS = `const events = new EventSource('/__dev/events');
let seen;
events.addEventListener('open', () => { document.documentElement.dataset.livePreview = 'connected'; });
events.addEventListener('state', (event) => {
  if (seen !== undefined && seen !== event.data) location.reload();
  seen = event.data;
});
`;
