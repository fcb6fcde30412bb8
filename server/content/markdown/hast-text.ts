import type { Root as HastRoot, RootContent as HastContent } from 'hast';

const BLOCK = /^(p|div|li|td|th|dt|dd|tr|summary|details|br|h[1-6]|figcaption|caption|pre|blockquote)$/;

/** Text of a sanitised tree, for search: block elements are kept apart by spaces. */
export function hastText(node: HastRoot | HastContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'root') return node.children.map(hastText).join('');
  if (node.type === 'element') {
    const inner = node.children.map(hastText).join('');
    return BLOCK.test(node.tagName) ? ` ${inner} ` : inner;
  }
  return '';
}
