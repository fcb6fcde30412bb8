import { watch, type FSWatcher } from 'node:fs';
import { sep } from 'node:path';

/**
 * Watches a folder and everything under it; calls `onChange` with the paths (relative, `/`-separated)
 * that changed, gathered over `settleMs` so one save (often a write and a rename) is one call.
 * Editors' backup and swap files are left out.
 */
export function watchTree(dir: string, onChange: (paths: string[]) => void, settleMs = 40): () => void {
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const watcher: FSWatcher = watch(dir, { recursive: true }, (_event, name) => {
    if (!name) return;
    const path = String(name).split(sep).join('/');
    const base = path.slice(path.lastIndexOf('/') + 1);
    if (base.startsWith('.') || base.endsWith('~') || /^\d+$/.test(base)) return;
    pending.add(path);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const paths = [...pending];
      pending = new Set();
      onChange(paths);
    }, settleMs);
  });
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
