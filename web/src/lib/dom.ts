/**
 * A few lines instead of a UI framework: build elements from a tag, attributes and children. Text is
 * always set as text (never parsed as HTML), and no `style` attribute is ever written (the CSP has no
 * 'unsafe-inline' for styles): layout lives in styles.css, positions of road marks in SVG attributes.
 */

export type Child = Node | string | number | null | undefined | false | readonly Child[];
type Listener = (event: Event) => void;
export type Attrs = Record<string, string | number | boolean | null | undefined | Listener>;

function apply(node: Element, attrs: Attrs | null | undefined): void {
  if (!attrs) return;
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'style') throw new Error('inline styles are not allowed (CSP): use a class');
    if (typeof value === 'function') {
      node.addEventListener(name.replace(/^on/, '').toLowerCase(), value);
    } else {
      node.setAttribute(name, value === true ? '' : String(value));
    }
  }
}

function append(node: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else if (child instanceof Node) node.appendChild(child);
    else node.appendChild(document.createTextNode(String(child)));
  }
}

/** An HTML element. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  apply(node, attrs);
  append(node, children);
  return node;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element. */
export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs?: Attrs | null,
  ...children: Child[]
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG_NS, tag);
  apply(node, attrs);
  append(node, children);
  return node;
}

/** Replaces the children of `node`. */
export function fill(node: Element, ...children: Child[]): void {
  node.replaceChildren();
  append(node, children);
}

/** The element with this id; throws if the page lacks it (a page and its script belong together). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`the page has no #${id}`);
  return node as T;
}
