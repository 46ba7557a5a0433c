// A view's requests: one button busy per action, errors to the message
// box, and searches that show their running time and can be cancelled.
import { ApiError, api, isAbort } from "./api.js";
import { html } from "./dom.js";
import { percent } from "./format.js";
import { clearMessage, showMessage } from "./message.js";

const RETRY_MS = 250;
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
  // it runs ``progress`` ticks the time taken so far and the nodes the
  // server has counted, beside a Cancel button. ``action(request)`` passes
  // ``request`` (an AbortSignal and the search's name) to its search's api
  // call; Cancel aborts it (the server stops the search when the request
  // goes) and ``progress`` then says so.
  function search(button, label, progress, action) {
    return run(button, label, async () => {
      const controller = new AbortController();
      const request = { signal: controller.signal, searchId: newSearchId() };
      const start = performance.now();
      const elapsed = html("span");
      const counters = html("span", { class: "live-counters" });
      const cancel = html("button", { type: "button", class: "secondary small-button" }, "Cancel");
      cancel.addEventListener("click", () => controller.abort());
      progress.classList.remove("cancelled");
      progress.replaceChildren(elapsed, counters, cancel);
      progress.hidden = false;
      const tick = () => { elapsed.textContent = `${secondsSince(start)} so far`; };
      tick();
      const timer = setInterval(tick, 100);
      const watcher = watch(request, counters);
      try {
        await action(request);
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
        watcher.stop();
      }
    });
  }

  return { run, search, get busy() { return running > 0; } };
}

// The interval a search has narrowed its answer to: a probability's as
// percentages, any other value's (a score) as numbers.
const intervalText = ([lo, hi]) =>
  0 <= lo && hi <= 1 ? `${percent(lo)} – ${percent(hi)}` : `${lo.toFixed(2)} – ${hi.toFixed(2)}`;

// A name for one search, unique enough among one server's running ones.
const newSearchId = () => `page-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

// Show the nodes the server has counted for the search ``request`` names,
// and the interval it has narrowed its answer to, as its events stream them
// (GET /v1/searches/<id>/events, Server-Sent Events, four a second). Before the search is admitted the server knows no
// such search (404) and the stream fails: it is opened again after RETRY_MS.
function watch(request, counters) {
  let stopped = false;
  let source = null;
  let timer = null;
  const open = () => {
    if (stopped) return;
    source = new EventSource(`/v1/searches/${request.searchId}/events`);
    source.addEventListener("progress", (event) => {
      const p = JSON.parse(event.data);
      counters.textContent = ` · ${p.nodes.toLocaleString("en-US")} nodes` +
        (p.interval ? ` · value ${intervalText(p.interval)}` : "");
    });
    source.addEventListener("end", () => source.close());
    source.onerror = () => {
      source.close();  // not running yet (404), or the server went: try again
      timer = setTimeout(open, RETRY_MS);
    };
  };
  timer = setTimeout(open, RETRY_MS);
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      source?.close();
    },
  };
}
