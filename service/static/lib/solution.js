// A winning line to step through on the board: the step buttons and the
// list of its moves (for the solve card), the bar over the board while a
// position along the line is shown, and the arrow keys (Home and End too).
import { activatable, fromTemplate, html, onShow, typing } from "./dom.js";
import { plural } from "./format.js";
import { showMessage } from "./message.js";

// ``root``: the view (the keys step only while it is on show).
// ``noun``: what one move is called ("flight", "turn").
// ``moveNode(move)``: a move as a node, for the list and the bar.
// ``load(index, previous, moves)``: what the view needs to show the
//   position after ``index`` moves (``previous``: the same after index - 1,
//   null for 0); called in order, once per index and line.
// ``show(view)``: show ``{index, total, entry, next}`` (``entry`` from
//   load, ``next`` the move to come), or the game again when null.
// ``adopt(view)``: play on from the position shown.
export function solutionLine(root, { noun, moveNode, load, show, adopt }) {
  const bar = fromTemplate(`
    <div class="preview-bar" hidden>
      <span class="preview-text"></span>
      <button type="button" data-step="adopt">Play from here</button>
      <button type="button" data-step="close">Back to game</button>
    </div>`);
  const controls = fromTemplate(`
    <div>
      <div class="row step-controls" hidden>
        <button type="button" data-step="first" title="Start (Home)">«</button>
        <button type="button" data-step="prev" title="Previous ${noun} (←)">‹</button>
        <span class="step-label"></span>
        <button type="button" data-step="next" title="Next ${noun} (→)">›</button>
        <button type="button" data-step="last" title="End (End)">»</button>
      </div>
      <ol class="moves"></ol>
    </div>`);
  const button = (name) => bar.querySelector(`[data-step="${name}"]`) || controls.querySelector(`[data-step="${name}"]`);
  const steps = controls.querySelector(".step-controls");
  const label = controls.querySelector(".step-label");
  const list = controls.querySelector(".moves");
  const barText = bar.querySelector(".preview-text");

  // The line: its moves, the loads (promises) by index, the index last
  // asked for and the one shown.
  let line = null;

  function entry(index) {
    const l = line;
    if (!l.entries[index]) {
      const previous = index === 0 ? Promise.resolve(null) : entry(index - 1);
      const loading = previous.then((prev) => load(index, prev, l.moves));
      l.entries[index] = loading;
      // A failed load is tried again the next time (and so are those after it).
      loading.catch(() => { if (l.entries[index] === loading) l.entries.length = index; });
    }
    return l.entries[index];
  }

  function mark(index) {
    label.textContent = `${index ?? 0} / ${line.moves.length}`;
    [...list.children].forEach((li, i) => {
      li.classList.toggle("current", i === index);
      li.classList.toggle("done", index !== null && i < index);
    });
    if (index === null) return;
    // Scroll the list itself (not the page) to keep the next move in view.
    const next = list.children[Math.min(index, list.children.length - 1)];
    if (next) list.scrollTop = next.offsetTop - list.clientHeight / 2 + next.offsetHeight / 2;
  }

  async function goTo(index) {
    const l = line;
    if (!l) return;
    index = Math.max(0, Math.min(index, l.moves.length));
    l.wanted = index;
    let loaded;
    try {
      loaded = await entry(index);
    } catch (e) {
      if (line === l) showMessage(e.message);
      return;
    }
    if (line !== l || l.wanted !== index) return; // a later step, or another line, was asked for meanwhile
    const total = l.moves.length;
    l.view = { index, total, entry: loaded, next: l.moves[index] ?? null };
    mark(index);
    barText.replaceChildren(...(index === total
      ? [`Solution: after all ${plural(total, noun)}.`]
      : [`Solution: after ${index} of ${plural(total, noun)}; next: `, moveNode(l.moves[index])]));
    bar.hidden = false;
    show(l.view);
  }

  function close() {
    if (!line) return;
    line.wanted = null;
    line.view = null;
    mark(null);
    bar.hidden = true;
    show(null);
  }

  // Where the step buttons and keys count from: the step on its way, else the one shown.
  const from = () => line?.wanted ?? line?.view?.index ?? 0;
  const stepTo = {
    first: () => 0,
    prev: () => from() - 1,
    next: () => from() + 1,
    last: () => line?.moves.length ?? 0,
  };
  for (const [name, target] of Object.entries(stepTo)) button(name).addEventListener("click", () => goTo(target()));
  button("close").addEventListener("click", close);
  button("adopt").addEventListener("click", () => { if (line?.view) adopt(line.view); });

  const KEYS = { ArrowLeft: stepTo.prev, ArrowRight: stepTo.next, Home: stepTo.first, End: stepTo.last };
  document.addEventListener("keydown", (e) => {
    const target = KEYS[e.key];
    if (!target || !line || !onShow(root) || typing(e) || e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
    e.preventDefault();
    goTo(target());
  });

  return {
    bar,
    controls,
    adoptButton: button("adopt"),
    // List ``moves``, numbered from ``first``, to step through (goTo).
    start(moves, { first = 1 } = {}) {
      line = { moves, entries: [], wanted: null, view: null };
      list.replaceChildren(...moves.map((move, i) => {
        const li = html("li", { title: `Show the position before this ${noun}` });
        li.append(html("span", { class: "num" }, `${first + i}.`), moveNode(move));
        return activatable(li, () => goTo(i));
      }));
      mark(null);
      steps.hidden = false;
      bar.hidden = true;
    },
    // Show the position after ``index`` moves.
    goTo,
    get moves() { return line ? line.moves : []; },
    clear() {
      line = null;
      list.replaceChildren();
      steps.hidden = true;
      bar.hidden = true;
    },
  };
}
