// The host's desk, where script runs (the page works without it: plain forms that post and come
// back). Here the page never navigates under the host's fingers:
// * the throw pad gets the drawn board (a tap: a dart exactly there);
// * the forms of play (the pad, Next, Undo, Correct, who was closer) are sent with fetch, one at
//   a time in the order they were made: the same POST as the form, to the same route, so the
//   server decides (and refuses) as it always has; its answer is a desk page, whose message, if
//   any, stays in words on the page until the next answer;
// * on every change the spectators' socket tells of, the page fetches itself again and swaps in
//   what changed (`morph`), keeping the drawn board and a field being typed in.
// Move and the new game still navigate: their answer is another page (a team's code, a question).

import { BoardView } from "./board.js";

const SENT = new Set(["throw", "virtual", "visit", "undo", "correct", "closer"]);

// The desk's own address: a page that came back from a navigating form's refusal stands at the
// form's (`/host/<secret>/move`), which only takes posts.
const DESK = location.pathname.split("/").slice(0, 3).join("/");

// Pages answer in the order they were asked for: an answer older than the page shown is dropped.
let issued = 0;
let shown = 0;
// The last answer's words (a refusal), kept across refreshes until the next answer.
let note = null;

// -- the drawn board, drawn once per board profile and kept across swaps --

const boards = new Map(); // profile -> Promise<BoardView | null>

function boardFor(profile, label) {
  if (!boards.has(profile)) {
    boards.set(
      profile,
      (async () => {
        try {
          const response = await fetch(`/api/board/${encodeURIComponent(profile)}`);
          if (!response.ok) return null;
          const board = new BoardView(await response.json(), label);
          board.onTap = (code, part) => tapped(board, code, part);
          return board;
        } catch {
          return null;
        }
      })(),
    );
  }
  return boards.get(profile);
}

async function drawPad() {
  const holder = document.getElementById("pad-board");
  if (!holder || holder.querySelector("svg")) return;
  const profile = holder.dataset.profile;
  const board = await boardFor(profile, holder.dataset.label || "");
  if (!board) {
    boards.delete(profile); // asked again at the next swap
    return;
  }
  if (!holder.isConnected || holder.querySelector("svg")) return;
  holder.classList.add("board-wrap");
  holder.append(board.svg);
}

function tapped(board, code, part) {
  const form = document.getElementById("throw");
  if (!form) return;
  // The bull-off tells the bulls apart: the inner one is DB, the outer SB (both BULL in play).
  const cell = code === "BULL" ? (part === "inner" ? "DB" : "SB") : code;
  const data = new FormData(form);
  data.set("cell", cell); // a field being typed in keeps what it holds
  send(form.getAttribute("action"), data, null).then((ok) => {
    if (!ok) board.flash(code);
  });
}

// -- sending, one at a time --

let sending = Promise.resolve();

// Resolves to whether the server took it (a desk page without a refusal).
function send(action, data, form) {
  const typed = form
    ? [...form.querySelectorAll("input:not([type=hidden])")].map((input) => [input, input.value])
    : [];
  const result = sending.then(() => post(action, data, typed));
  sending = result.then(() => undefined);
  return result;
}

async function post(action, data, typed) {
  const ticket = ++issued;
  let response;
  let text;
  try {
    response = await fetch(action, { method: "POST", body: new URLSearchParams(data), cache: "no-store" });
    text = await response.text();
  } catch {
    say(document.body.dataset.unreachable || "");
    return false;
  }
  const page = desk(response, text);
  if (!page) {
    say(text.trim() || String(response.status));
    return false;
  }
  const refusal = page.getElementById("message");
  say(refusal ? refusal.textContent : null);
  if (response.ok && !refusal) {
    // Taken: what was typed for it goes, as a reload cleared it (unless typed anew meanwhile).
    for (const [input, value] of typed) if (input.value === value) input.value = "";
  }
  // The answer is the plain desk; a page asked for with `?team=N` (after Move) asks anew rather
  // than show another team's code for a moment.
  if (location.search) refresh();
  else show(page, ticket);
  return response.ok && !refusal;
}

// -- following the game --

let refreshing = false;
let again = false;

async function refresh() {
  if (refreshing) {
    again = true; // one more once this one is in: it may have left before the change
    return;
  }
  refreshing = true;
  try {
    do {
      again = false;
      const ticket = ++issued;
      try {
        const response = await fetch(DESK + location.search, { cache: "no-store" });
        const text = await response.text();
        const page = desk(response, text);
        if (page) show(page, ticket);
        else if (!response.ok) say(text.trim() || String(response.status));
      } catch {
        // The kiosk is away: the socket comes back with it and asks again.
      }
    } while (again);
  } finally {
    refreshing = false;
  }
}

function follow() {
  // The spectators' feed: every message (the first of each connection too: something may have
  // changed while it was down) means the game may have changed.
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/api/game/ws`);
  socket.addEventListener("message", () => refresh());
  socket.addEventListener("close", () => setTimeout(follow, 3000));
}

// -- the page's answer, swapped in --

// The answer as a document when it is a desk page (any other answer is words of the server's).
function desk(response, text) {
  if (!(response.headers.get("Content-Type") || "").startsWith("text/html")) return null;
  const page = new DOMParser().parseFromString(text, "text/html");
  return page.body && page.body.hasAttribute("data-live") ? page : null;
}

function say(words) {
  note = words ? words.trim() : null;
  placeNote(document);
}

// The kept words where the server puts a message, right under the heading, in a line that
// stays (empty and unseen when there are none: CSS `.slot`), so that words coming or going
// never move the drawn board under the host's finger.
function placeNote(page) {
  let line = page.getElementById("message");
  if (!line) {
    line = page.createElement("p");
    page.querySelector("h1")?.after(line);
  }
  line.className = "message slot";
  line.id = "message";
  if (note) line.setAttribute("role", "alert");
  else line.removeAttribute("role");
  line.textContent = note || "";
}

function show(page, ticket) {
  if (ticket < shown) return;
  shown = ticket;
  placeNote(page);
  document.title = page.title;
  morph(document.body, page.body);
  drawPad();
}

// Old and new children are paired in order by kind (tag and id, a form's action, a field's
// name); a pair is updated in place, so nodes that stay (a focused field, the drawn board)
// keep their state. Nodes without a pair go, new ones come.
function keyOf(node) {
  if (node.nodeType !== Node.ELEMENT_NODE) return `#${node.nodeType}`;
  return `${node.tagName}|${node.id || node.getAttribute("action") || node.getAttribute("name") || ""}`;
}

function morph(old, fresh) {
  syncAttributes(old, fresh);
  let cursor = old.firstChild;
  for (const wanted of [...fresh.childNodes]) {
    const key = keyOf(wanted);
    let pair = cursor;
    while (pair && keyOf(pair) !== key) pair = pair.nextSibling;
    if (!pair) {
      old.insertBefore(document.importNode(wanted, true), cursor);
      continue;
    }
    while (cursor !== pair) {
      const next = cursor.nextSibling;
      cursor.remove();
      cursor = next;
    }
    update(pair, wanted);
    cursor = pair.nextSibling;
  }
  while (cursor) {
    const next = cursor.nextSibling;
    cursor.remove();
    cursor = next;
  }
}

function update(node, wanted) {
  if (node.nodeType !== Node.ELEMENT_NODE) {
    if (node.nodeValue !== wanted.nodeValue) node.nodeValue = wanted.nodeValue;
    return;
  }
  if (node.id === "pad-board") {
    // The drawn board stays while the board is the same (its taps never wait for a redraw).
    if (node.dataset.profile !== wanted.dataset.profile) node.replaceWith(document.importNode(wanted, true));
    return;
  }
  if (node.isEqualNode(wanted)) return;
  morph(node, wanted);
}

function syncAttributes(node, wanted) {
  for (const attr of [...node.attributes]) {
    if (!wanted.hasAttributeNS(attr.namespaceURI, attr.localName)) {
      node.removeAttributeNS(attr.namespaceURI, attr.localName);
    }
  }
  for (const attr of wanted.attributes) {
    if (node.getAttributeNS(attr.namespaceURI, attr.localName) !== attr.value) {
      node.setAttributeNS(attr.namespaceURI, attr.name, attr.value);
    }
  }
}

// -- the forms of play: sent, not navigated --

document.addEventListener("submit", (event) => {
  const form = event.target;
  const action = event.submitter?.getAttribute("formaction") || form.getAttribute("action") || "";
  if (form.method !== "post" || !SENT.has(action.split("/").pop())) return;
  event.preventDefault();
  send(action, new FormData(form), form);
});

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") refresh(); // a phone woken from its sleep
});

const first = document.getElementById("message");
if (first) note = first.textContent;
placeNote(document);
drawPad();
follow();
