// A phone page's live socket: messages as they come; after a drop it asks the page to catch up
// (`recover()`: false when the link is gone) and listens again, 1 s, 2 s, ... 5 s apart. A socket
// closed with 4000 ended with its game (its link is dead): `gameOver()` says whether the page
// takes that as the end (true) or listens on.

export const CLOSE_GAME_OVER = 4000;

export function liveSocket({ path, onMessage, onStatus, recover, gameOver, done }) {
  let socket = null;
  let retry = 0;

  function open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const mine = new WebSocket(`${scheme}://${location.host}${path()}`);
    socket = mine;
    mine.addEventListener("open", () => {
      retry = 0;
      onStatus(true);
    });
    mine.addEventListener("message", (event) => {
      if (socket !== mine) return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      onMessage(message);
    });
    mine.addEventListener("close", (event) => {
      if (socket !== mine) return; // closed by the page itself
      onStatus(false);
      if (event.code === CLOSE_GAME_OVER && gameOver()) return;
      if (done()) return;
      retry = Math.min(retry + 1, 5);
      setTimeout(async () => {
        if (socket === mine && (await recover())) open();
      }, retry * 1000);
    });
  }

  function close() {
    const old = socket;
    socket = null;
    old?.close();
  }

  return { open, close, reopen: () => { close(); open(); } };
}

// The header's badge: live, or offline while the socket is down.
export function showConnection(on, t) {
  const badge = document.getElementById("connection");
  badge.dataset.state = on ? "live" : "offline";
  badge.textContent = on ? t("live") : t("offline");
}

// A POST's answer and the socket race: news of later moves can come on the socket before the
// answer to the move that led to them. Of two views of one game (`step`: the commands the game
// has accepted), the older must not win.
export function olderView(view, than) {
  return Boolean(view && than && view.game === than.game && view.step < than.step);
}
