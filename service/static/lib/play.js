// What playing a game on the page shares: new games, Undo and Restart, random draws.
import { clearMessage } from "./message.js";

// New games, Undo and Restart over answers of a game's check. The view
// keeps the shown ``state.check``, what led to it ``state.last``,
// ``state.history`` and ``state.initial``, and shows a check with
// ``setPosition(check, last)``.
export function checkHistory(state, setPosition) {
  const record = {
    // A new game from ``check``: Restart comes back here.
    start(check) {
      state.initial = check;
      state.history = [];
      setPosition(check, null);
    },
    // Show ``check``, reached by ``last``; Undo comes back here.
    advance(check, last) {
      state.history.push({ check: state.check, last: state.last });
      setPosition(check, last);
    },
    undo() {
      const prev = state.history.pop();
      if (!prev) return;
      setPosition(prev.check, prev.last);
      clearMessage();
    },
    restart() {
      if (!state.initial) return;
      record.start(state.initial);
      clearMessage();
    },
  };
  return record;
}

// A random index below ``n`` from the browser's crypto source: draws and
// reveals are uniform over what is left.
export function randomIndex(n) {
  const pick = new Uint32Array(1);
  crypto.getRandomValues(pick);
  return pick[0] % n;
}
