/**
 * The one inline script of a page, first in its head: it marks the document `js-enabled` before the
 * first paint, so the layout drawn for scripts (the header's menu button in place of its wrapped links,
 * a collapsed page tree) is the layout drawn first, and loading the islands moves nothing on screen.
 * Waiting for the islands module to say so moved the page's content up once it ran: a layout shift on
 * every view of a phone. Browsers that would not run the module (no module support) are left unmarked,
 * and if the module fails to load the mark is taken off again, so the page falls back to the layout it
 * has without scripts. The page's Content-Security-Policy allows this script by its hash alone
 * (server/plugins/render.ts).
 */
export const SCRIPTS_CLASS_SCRIPT = "(function(h){if(!('noModule' in document.createElement('script')))return;"
  + "h.classList.add('js-enabled');addEventListener('error',function(e){var s=e.target;"
  + "if(s&&s.nodeName==='SCRIPT'&&s.type==='module')h.classList.remove('js-enabled')},true)})(document.documentElement)";

export function ScriptsClass() {
  return <script dangerouslySetInnerHTML={{ __html: SCRIPTS_CLASS_SCRIPT }} />;
}
