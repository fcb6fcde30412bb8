/** The version-selector island (views/islands/names.ts): not enhanced yet; the server's markup works on its own. */
export default function enhance(_element: HTMLElement): void {}
