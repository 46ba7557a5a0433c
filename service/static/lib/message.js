// The message box under the header (index.html): errors, and news such as
// a game won.

const box = document.getElementById("message");
const text = document.getElementById("message-text");

export function showMessage(message, kind = "error") {
  text.textContent = message;
  box.className = "message" + (kind === "info" ? " info" : "");
  box.hidden = false;
}

export function clearMessage() {
  box.hidden = true;
}

document.getElementById("message-close").addEventListener("click", clearMessage);
