// The message box under the header (index.html): errors, and news such as
// a game won.

const box = document.getElementById("message");
const text = document.getElementById("message-text");

export function showMessage(message, kind = "error") {
  text.textContent = message;
  box.className = "message" + (kind === "info" ? " info" : "");
  box.hidden = false;
}

// The news of a game over: ``texts[status]`` (win, loss), if the game is.
export function showOutcome(status, texts) {
  if (texts[status]) showMessage(texts[status], "info");
}

export function clearMessage() {
  box.hidden = true;
}

document.getElementById("message-close").addEventListener("click", clearMessage);
