// The rows of a hint. The board shows one row's move without hover (touch
// screens have none): the first (best) row's when the answer arrives, then
// the selected row's. A row is focusable and selected by a click, Enter or
// Space; hovering previews a row; its Play button plays the move.
import { activatable, html } from "./dom.js";

// ``row(item, playButton, index)``: the row's element (li, tr), with the
// button where it belongs; ``show(item)``: draw the item's move on the board;
// ``play(item, playButton)``: play it.
export function hintRows(container, items, { row, show, play }) {
  let selected = 0;
  const nodes = items.map((item, i) => {
    const playButton = html("button", { type: "button", class: "secondary small-button", title: "Play this move" }, "Play");
    playButton.addEventListener("click", (e) => {
      e.stopPropagation(); // not a selection too
      play(item, playButton);
    });
    const node = row(item, playButton, i);
    node.title = "Select it to see its move on the board";
    activatable(node, () => select(i), { role: null });
    node.addEventListener("mouseenter", () => show(item));
    node.addEventListener("mouseleave", () => show(items[selected]));
    return node;
  });
  container.replaceChildren(...nodes);

  function select(i) {
    selected = i;
    nodes.forEach((n, k) => {
      n.classList.toggle("selected", k === i);
      n.setAttribute("aria-current", String(k === i));
    });
    show(items[i]);
  }
  if (items.length) select(0);
}
