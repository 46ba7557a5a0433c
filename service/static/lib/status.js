// The status bar over a view's board: the status of the position on show,
// which is the one being stepped through while a solution line is.
import { badge, html } from "./dom.js";

// ``status``: a badge's value; ``text``: strings and nodes; ``extra``: a
// quieter tail; ``stepping``: the position shown is along a solution line.
export function setStatus(bar, { status = null, text = [], extra = "", stepping = false }) {
  bar.replaceChildren(...(status ? [badge(status)] : []), ...text);
  if (extra) bar.append(html("span", { class: "muted status-extra" }, extra));
  bar.classList.toggle("stepping", stepping);
}
