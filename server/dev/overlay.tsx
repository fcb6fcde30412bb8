import { renderToStaticMarkup } from 'react-dom/server';
import { formatProblem, type Problem } from '../content/problems.ts';

/**
 * Live preview's problem overlay: a saved tree that cannot be imported, shown over the page instead of
 * its content (the page underneath is the last good content). Styled by /__dev/overlay.css.
 */
export function DevOverlay({ problems }: { problems: Problem[] }) {
  const count = `${problems.length} problem${problems.length === 1 ? '' : 's'}`;
  return (
    <div id="signpost-dev-overlay" role="alert" aria-labelledby="signpost-dev-overlay-title">
      <h2 id="signpost-dev-overlay-title">The content tree has {count}</h2>
      <p>The last good content is still being served. Fix the files and this page reloads by itself.</p>
      <ul>
        {problems.map((p, i) => <li key={i}><code>{formatProblem(p)}</code></li>)}
      </ul>
    </div>
  );
}

export function overlayHtml(problems: Problem[]): string {
  return renderToStaticMarkup(<DevOverlay problems={problems} />);
}

export const OVERLAY_CSS = `#signpost-dev-overlay{position:fixed;inset:0;z-index:2147483647;overflow:auto;margin:0;padding:2rem;
background:#fff;color:#1d1d1d;font:16px/1.5 system-ui,sans-serif;border-top:6px solid #c9372c}
#signpost-dev-overlay h2{margin:0 0 .5rem;font-size:1.5rem;color:#ae2e24}
#signpost-dev-overlay ul{padding-left:1.25rem}
#signpost-dev-overlay code{font:14px/1.5 ui-monospace,monospace;white-space:pre-wrap;word-break:break-word}
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
