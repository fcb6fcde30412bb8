/**
 * Reads a JavaScript configuration file (Docusaurus sidebars.js / docusaurus.config.js, Astro's
 * astro.config.mjs) without running it: the file is parsed with acorn and only plain data is
 * evaluated — objects, arrays, strings, numbers, booleans, template strings without expressions,
 * constants declared in the file, `module.exports = …`, `export default …`, and calls, which are
 * kept as `{ $call: name, args }` so the caller can look inside `defineConfig(…)` or `starlight(…)`.
 * Anything else (a function, a `require`, a computed value) reads as undefined and is noted with its line.
 * A TypeScript config (`sidebars.ts`, `astro.config.ts`: `.ts`, `.mts`, `.cts`) first has its types
 * stripped by esbuild's transform (annotations, `satisfies`, `as const`, type imports), which runs
 * nothing either; its notes' lines are then those of the stripped file, said so.
 */
import { parse, type Node } from 'acorn';
import { transformSync } from 'esbuild';

export interface JsCall { $call: string; args: unknown[] }
export interface JsConfig { value: unknown; notes: string[] }

type AnyNode = Node & Record<string, any>;

/** Is this file TypeScript, by its name? */
export const isTypeScript = (fileName: string) => /\.[cm]?ts$/.test(fileName);

export function readJsConfig(source: string, fileName = 'config.js'): JsConfig {
  const notes: string[] = [];
  const typescript = isTypeScript(fileName);
  let javascript = source;
  if (typescript) {
    try {
      javascript = transformSync(source, { loader: 'ts', format: 'esm', target: 'esnext', sourcefile: fileName }).code;
    } catch (error) {
      return { value: undefined, notes: [`its TypeScript does not parse (${(error as Error).message.split('\n')[0] ?? ''}); left out`] };
    }
  }
  let program: AnyNode;
  try {
    program = parse(javascript, { ecmaVersion: 'latest', sourceType: 'module', locations: true, allowHashBang: true }) as AnyNode;
  } catch (error) {
    return { value: undefined, notes: [`cannot be read without running it (${(error as Error).message})`] };
  }
  const constants = new Map<string, AnyNode>();
  let exported: AnyNode | undefined;
  for (const statement of program.body as AnyNode[]) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
    if (declaration?.type === 'VariableDeclaration') {
      for (const d of declaration.declarations as AnyNode[]) if (d.id.type === 'Identifier' && d.init) constants.set(d.id.name, d.init);
    }
    if (statement.type === 'ExportDefaultDeclaration') exported = statement.declaration;
    // `export { config as default }`, as a stripped `export default config satisfies …` may read.
    const asDefault = statement.type === 'ExportNamedDeclaration' && !statement.source
      ? (statement.specifiers as AnyNode[]).find((s) => s.exported?.name === 'default') : undefined;
    if (asDefault) exported = asDefault.local;
    if (statement.type === 'ExpressionStatement' && statement.expression.type === 'AssignmentExpression') {
      const left = statement.expression.left as AnyNode;
      if (left.type === 'MemberExpression' && left.object.name === 'module' && left.property.name === 'exports') exported = statement.expression.right;
    }
  }
  const unread = (node: AnyNode, what: string) => {
    notes.push(`line ${node.loc?.start.line ?? 1}${typescript ? ' (with its types stripped)' : ''}: ${what} cannot be read without running the file; left out`);
    return undefined;
  };
  const seen = new Set<string>();
  const evaluate = (node: AnyNode | null | undefined): unknown => {
    if (!node) return undefined;
    switch (node.type) {
      case 'Literal': return node.value;
      case 'TemplateLiteral':
        return node.expressions.length === 0 ? node.quasis.map((q: AnyNode) => q.value.cooked).join('') : unread(node, 'a template string with values');
      case 'ArrayExpression': return (node.elements as AnyNode[]).map((e) => (e?.type === 'SpreadElement' ? unread(e, 'a spread') : evaluate(e)));
      case 'ObjectExpression': {
        const out: Record<string, unknown> = {};
        for (const p of node.properties as AnyNode[]) {
          if (p.type !== 'Property' || p.computed) { unread(p, 'a computed or spread property'); continue; }
          const key = p.key.type === 'Identifier' ? p.key.name : String(p.key.value);
          out[key] = evaluate(p.value);
        }
        return out;
      }
      case 'Identifier': {
        const init = constants.get(node.name);
        if (!init || seen.has(node.name)) return node.name === 'undefined' ? undefined : unread(node, `the name ${node.name}`);
        seen.add(node.name);
        const value = evaluate(init);
        seen.delete(node.name);
        return value;
      }
      case 'CallExpression': {
        const callee = node.callee.type === 'Identifier' ? node.callee.name : node.callee.type === 'MemberExpression' ? node.callee.property.name : '?';
        if (callee === 'require') return unread(node, 'a require()');
        return { $call: callee, args: (node.arguments as AnyNode[]).map(evaluate) } satisfies JsCall;
      }
      case 'UnaryExpression':
        if (node.operator === '-' && node.argument.type === 'Literal') return -node.argument.value;
        if (node.operator === '!' && node.argument.type === 'Literal') return !node.argument.value;
        return unread(node, 'an expression');
      case 'AwaitExpression': return evaluate(node.argument);
      case 'ArrowFunctionExpression': case 'FunctionExpression': return unread(node, 'a function');
      default: return unread(node, `a ${node.type}`);
    }
  };
  if (!exported) return { value: undefined, notes: [`no \`export default\` or \`module.exports\` found`] };
  return { value: evaluate(exported), notes };
}

/** The object a config call wraps: `defineConfig({…})` gives `{…}`; a plain object is itself. */
export function unwrapCall(value: unknown): unknown {
  let v = value;
  while (isCall(v)) v = v.args[0];
  return v;
}

export function isCall(value: unknown, name?: string): value is JsCall {
  return typeof value === 'object' && value !== null && '$call' in value && (name === undefined || (value as JsCall).$call === name);
}
