// A view's requests: one button busy per action, errors to the message
// box, and searches that show their running time and can be cancelled.
import { ApiError, isAbort } from "./api.js";
import { html } from "./dom.js";
import { clearMessage, showMessage } from "./message.js";

const secondsSince = (start) => `${((performance.now() - start) / 1000).toFixed(1)} s`;

// ``onChange`` runs when an action starts and when it ends (a view that
// allows one action at a time switches its buttons there).
export function worker(onChange = () => {}) {
  let running = 0;

  // Run ``action``: ``button`` is disabled (relabelled ``label``) meanwhile,
  // and an error goes to the message box.
  async function run(button, label, action) {
    const old = button.textContent;
    if (label) button.textContent = label;
    running += 1;
    onChange();
    button.disabled = true;
    try {
      clearMessage();
      await action();
    } catch (e) {
      showMessage(e instanceof ApiError ? e.message : `Error: ${e.message}`);
      if (!(e instanceof ApiError)) console.error(e);
    } finally {
      running -= 1;
      button.disabled = false;
      button.textContent = old;
      onChange();
    }
  }

  // A search, which may run up to the server's time cap: ``run``, and while
  // it runs ``progress`` ticks the time taken so far beside a Cancel button.
  // ``action(signal)`` passes the signal to its requests; Cancel aborts
  // them (the server stops the search when the request goes) and
  // ``progress`` then says so.
  function search(button, label, progress, action) {
    return run(button, label, async () => {
      const controller = new AbortController();
      const start = performance.now();
      const elapsed = html("span");
      const cancel = html("button", { type: "button", class: "secondary small-button" }, "Cancel");
      cancel.addEventListener("click", () => controller.abort());
      progress.classList.remove("cancelled");
      progress.replaceChildren(elapsed, cancel);
      progress.hidden = false;
      const tick = () => { elapsed.textContent = `${secondsSince(start)} so far`; };
      tick();
      const timer = setInterval(tick, 100);
      try {
        await action(controller.signal);
        progress.hidden = true;
        progress.replaceChildren();
      } catch (e) {
        if (!isAbort(e)) {
          progress.hidden = true;
          throw e;
        }
        progress.classList.add("cancelled");
        progress.textContent = `Cancelled after ${secondsSince(start)}.`;
      } finally {
        clearInterval(timer);
      }
    });
  }

  return { run, search, get busy() { return running > 0; } };
}
