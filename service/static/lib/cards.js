// What every view is built of: the markup of the layout frame, of the
// pieces under a board and of the panel's cards (for its template), and
// what those cards do alike in every view. What differs between views comes
// in as parameters; the data-ref names are the ones the views and the
// browser tests find the parts by.
import { ApiError, api } from "./api.js";
import { secondsField, secondsLimit } from "./limits.js";

const titled = (title) => (title ? ` title="${title}"` : "");

// The page's two columns: the game (under its status bar), then the panel's cards.
export function layout(column, ...cards) {
  return `
<div class="layout">
  <section class="board-column">
    <div class="status-bar" data-ref="status">No position loaded.</div>
    ${column}
  </section>
  <aside class="panel">
    ${cards.join("\n")}
  </aside>
</div>`;
}

// Where a hex board goes, under the bar of a solution line being stepped through.
export const BOARD_SLOTS = `<div data-ref="barSlot"></div>
    <div data-ref="boardSlot"></div>`;

// Put the board's frame (lib/hexboard.js createBoard) and a solution
// line's parts (lib/solution.js) in BOARD_SLOTS and the Solve card's slot.
export function fillSlots(ui, boardWrap, line) {
  ui.boardSlot.replaceWith(boardWrap);
  ui.barSlot.replaceWith(line.bar);
  ui.lineSlot.replaceWith(line.controls);
}

// The row under the board: ``left`` beside the play buttons, Undo and
// Restart after the view's own ``buttons``.
export function underBoard(left, buttons = "") {
  return `
    <div class="under-board">
      ${left}
      <div class="play-buttons">
        ${buttons}
        <button type="button" data-ref="undo" disabled>Undo</button>
        <button type="button" data-ref="restart" disabled>Restart</button>
      </div>
    </div>`;
}

// The pawn colours to pick from (lib/hexboard.js supplyChips fills it).
export function supplyBox(note) {
  return `<div>
        <h3>Supply <span class="muted small">(${note})</span></h3>
        <div class="supply" data-ref="supply"></div>
      </div>`;
}

export const legend = (...items) => `<div class="legend small muted">${items.join("\n")}</div>`;

// Legend entries for a hex board: a space's circle and a cell's outline, drawn with the board's classes.
export const spaceKey = (cls, text, style = "") =>
  `<span><svg width="14" height="14"><circle cx="7" cy="7" r="5" class="${cls}"${style ? ` style="${style}"` : ""}/></svg> ${text}</span>`;
export const cellKey = (cls, text) =>
  `<span><svg width="16" height="14"><rect x="1" y="2" width="14" height="10" class="${cls}"/></svg> ${text}</span>`;

// The card that starts a game: the view's own ``controls``, then the
// position as JSON to edit and play from with ``action`` (its button).
export function jsonCard(title, controls, { rows = 9, action = { ref: "load", label: "Load" } } = {}) {
  return `
    <section class="card">
      <h2>${title}</h2>
      ${controls}
      <div class="small muted">Position JSON (edit, then ${action.label})</div>
      <textarea data-ref="json" spellcheck="false" rows="${rows}" aria-label="Position JSON"></textarea>
      <div class="row">
        <button type="button" data-ref="${action.ref}"${titled(action.title)}>${action.label}</button>
        <button type="button" data-ref="revert" class="secondary">Show current</button>
      </div>
    </section>`;
}

// The JSON card's box: ``show`` writes a position in it (``format``), and
// Show current writes the one ``current()`` returns; ``read`` parses it.
export function jsonEditor(ui, { format, current }) {
  ui.revert.addEventListener("click", () => {
    const position = current();
    if (position) ui.json.value = format(position);
  });
  return {
    show(position) { ui.json.value = format(position); },
    // An ApiError, not a SyntaxError: the message box shows it as it is.
    read() {
      try {
        return JSON.parse(ui.json.value);
      } catch (e) {
        throw new ApiError(`Position JSON: ${e.message}`);
      }
    },
  };
}

// The Hint card: its seconds field (``seconds``, ``step``) after the view's
// own ``fields``, its info line (class ``info``), and the hint's ``rows`` (a
// list unless the view has others).
export function hintCard({ seconds, step = 1, fields = "", info = "stats",
  rows = `<ol class="moves hint-list" data-ref="hintList"></ol>` }) {
  return `
    <section class="card">
      <h2>Hint</h2>
      ${fields ? `<div class="row">${fields}</div>` : ""}
      <div class="row">${secondsField("hintSeconds", seconds, step)} <button type="button" data-ref="hint">Hint</button></div>
      <div class="progress small" data-ref="hintProgress" hidden></div>
      <div class="small muted ${info}" data-ref="hintInfo"></div>
      ${rows}
    </section>`;
}

// The Solve card. A view with a winning ``line`` to step through gets the
// verdict (a badge) beside the button and the line's slot (lib/solution.js);
// one without has a verdict line of its own.
export function solveCard({ seconds, title = "", line = false }) {
  const verdict = line ? `<span data-ref="solveVerdict"></span>` : `<div class="verdict" data-ref="solveVerdict"></div>`;
  return `
    <section class="card">
      <h2>Solve</h2>
      <div class="row">
        ${secondsField("solveSeconds", seconds)} <button type="button" data-ref="solve"${titled(title)}>Solve</button>
        ${line ? verdict : ""}
      </div>
      <div class="progress small" data-ref="solveProgress" hidden></div>
      ${line ? "" : verdict}
      <div class="small muted stats" data-ref="solveStats"></div>
      ${line ? `<div data-ref="lineSlot"></div>` : ""}
    </section>`;
}

const SEARCHING = { hint: "Thinking…", solve: "Solving…" };

// The search of the card ``name`` ("hint", "solve") about the position
// ``current()`` returns, if any: POST ``path`` the position, ``extra`` and
// the card's seconds (the field's initial value when it is empty or off), run by
// ``work`` (lib/work.js) on the card's button and progress; ``answer(result,
// {position, signal})`` shows the result unless the game moved on meanwhile.
export function cardSearch(ui, work, name, { current, path, extra = {}, answer }) {
  const position = current();
  if (!position) return;
  const seconds = ui[`${name}Seconds`];
  const body = { position, ...extra, limit: secondsLimit(seconds, Number(seconds.defaultValue)) };
  work.search(ui[name], SEARCHING[name], ui[`${name}Progress`], async (request) => {
    const result = await api(path, body, request);
    if (position === current()) await answer(result, { position, signal: request.signal });
  });
}
