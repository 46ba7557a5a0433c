// Small DOM helpers shared by the views.

const SVGNS = "http://www.w3.org/2000/svg";

export function html(tag, attrs = {}, text = null) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  return node;
}

export function svg(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// The element a template string describes (its one top-level element).
export function fromTemplate(markup) {
  const template = document.createElement("template");
  template.innerHTML = markup.trim();
  return template.content.firstElementChild;
}

// Every element under ``root`` with a data-ref, by that name: views keep
// their own names instead of page-wide ids, so two views never clash.
export function refs(root) {
  return Object.fromEntries([...root.querySelectorAll("[data-ref]")].map((n) => [n.dataset.ref, n]));
}

// A game's own styles, added once (a module runs once, so call it at its top level).
export function addStyles(css) {
  document.head.append(html("style", {}, css));
}

// Make ``node`` act like a button for the keyboard too: focusable, and
// Enter or Space run ``action`` as a click does.
export function activatable(node, action, { role = "button" } = {}) {
  node.setAttribute("tabindex", "0");
  if (role) node.setAttribute("role", role);
  node.addEventListener("click", action);
  node.addEventListener("keydown", (e) => {
    if (e.target !== node || (e.key !== "Enter" && e.key !== " ")) return;
    e.preventDefault(); // Space would scroll the page
    action(e);
  });
  return node;
}

// Whether a key press belongs to a field being typed in.
export function typing(event) {
  const t = event.target;
  return t instanceof HTMLElement && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName));
}

// Whether ``node`` is on show: its view is the selected tab.
export const onShow = (node) => node.isConnected && !node.closest("[hidden]");

export function badge(value) {
  return html("span", { class: `badge ${value}` }, value);
}
