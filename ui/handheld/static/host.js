// The host's desk, where script runs (it works without): the throw pad gets the drawn board
// (tap a cell: a dart lands exactly there), and the page follows the game by itself, reloading
// when the game changes rather than every few seconds.

import { BoardView } from "./board.js";

async function drawPad() {
  const holder = document.getElementById("pad-board");
  if (!holder) return;
  const response = await fetch(`/api/board/${encodeURIComponent(holder.dataset.profile)}`);
  if (!response.ok) return;
  const board = new BoardView(await response.json(), holder.dataset.label || "");
  board.onTap = (code, part) => {
    // The bull-off tells the bulls apart: the inner one is DB, the outer SB (both BULL in play).
    const bull = part === "inner" ? "DB" : "SB";
    document.getElementById("cell").value = code === "BULL" ? bull : code;
    document.getElementById("throw").requestSubmit();
  };
  holder.classList.add("board-wrap");
  holder.append(board.svg);
}

// Never reload under the host's fingers: a field being typed in waits for its blur.
let stale = false;

function reloadWhenIdle() {
  const active = document.activeElement;
  if (active && active.tagName === "INPUT") {
    stale = true;
    return;
  }
  location.reload();
}

document.addEventListener("focusout", () => {
  if (stale) setTimeout(reloadWhenIdle, 0);
});

function follow() {
  // The spectators' feed: its first message is the game as it is; each later one, a change.
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/api/game/ws`);
  let first = true;
  socket.addEventListener("message", () => {
    if (first) {
      first = false;
      return;
    }
    reloadWhenIdle();
  });
  socket.addEventListener("close", () => setTimeout(follow, 3000));
}

drawPad();
follow();
