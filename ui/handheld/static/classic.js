// The classic page (10x10 Battleship) on a phone, in three roles by its address:
//   /classic            this phone's own table: solo against the computer, the daily challenge,
//                       and a room for a friend ("play with friends");
//   /classic/r/<token>  a room link: the friend (the first other phone to open it) or a spectator;
//   /team/<token>       a team's link of the kiosk's classic duel.
// The kiosk decides what each may see; this page draws what it gets and never more.

import { h, messageLine } from "./dom.js";
import { request } from "./net.js";
import { liveSocket, olderView, showConnection } from "./live.js";
import { loadCatalog, pickLanguage } from "./i18n.js";
import { cellCode, parseCell, renderGrid, shipCells, SIZE } from "./grid.js";

const SHIPS = ["Carrier", "Battleship", "Cruiser", "Submarine", "Destroyer"];
const LENGTHS = [5, 4, 3, 3, 2];
const LEVELS = ["easy", "normal", "hard"];
const ROOM = (location.pathname.match(/^\/classic\/r\/([A-Za-z0-9_-]{1,64})$/) || [])[1] || null;
const TEAM = (location.pathname.match(/^\/team\/([A-Za-z0-9_-]{1,64})$/) || [])[1] || null;
const MODE = ROOM ? "room" : TEAM ? "team" : "own";
const NAME_KEY = "dartship.classic.name";

const page = {
  t: (key) => key,
  tab: MODE === "own" && location.hash === "#daily" ? "daily" : "play",
  view: null,
  room: null,
  daily: null,
  phones: null,
  lastShot: null, // the last shot heard: {event, player, cell, result, ship?}
  selected: null, // the square aimed at (a second tap, or Fire, fires)
  editing: null, // re-placing: {ships: [[codes] x5], chosen: index}
  note: null, // {key, params, kind} or {text, kind}
  starting: false, // the start form instead of the last result card
  board: null, // the daily leaderboard: {date, entries}
  connected: false,
  gone: null, // "expired" | "closed" | "moved" | "other_phone" | "other_team" | "throttled"
  busy: false,
};

const t = (key, params) => page.t(key, params);


// ---- talking to the kiosk ---------------------------------------------------------------

function api() {
  if (ROOM) return `/api/classic/r/${ROOM}`;
  if (TEAM) return `/api/classic/team/${TEAM}`;
  return page.tab === "daily" ? "/api/classic/daily" : "/api/classic/play";
}

function goneFor(status, body) {
  if (status === 404 && (ROOM || TEAM)) return "expired";
  if (status === 429 && body?.error === "too_many_attempts") return "throttled";
  if (status === 403 && ["other_phone", "other_team"].includes(body?.error)) return body.error;
  return null;
}

// Every code the classic routes answer with a fixed meaning (tests/ui/test_handheld_catalogs.py
// holds this list against the server's codes); "refused" and "bad_fleet" carry the kiosk's own
// words, which say which rule and which ship.
const KNOWN_ERRORS = [
  "not_your_turn", "already_fired", "fleet_locked", "too_many_games", "too_many_rooms", "daily_taken",
  "waiting_for_phones", "watching", "not_friend", "no_game", "no_room", "paused", "busy", "bad_json",
  "not_json", "bad_shape", "bad_cell", "too_large", "too_slow",
];

function errorNote(status, body) {
  const code = body?.error;
  if (code && KNOWN_ERRORS.includes(code)) return { key: `c_err_${code}`, kind: "error" };
  if (body?.message) return { text: body.message, kind: "error" };
  return { key: "err_network", kind: "error" };
}

// One request that answers with a view; its answer is shown, its refusal said.
async function act(path, method, payload, after) {
  if (page.busy) return;
  page.busy = true;
  const { status, body } = await request(`${api()}${path}`, method, payload);
  page.busy = false;
  const gone = goneFor(status, body);
  if (gone) {
    page.gone = gone;
    render();
    return;
  }
  if (status !== 200) {
    page.note = errorNote(status, body);
    render();
    return;
  }
  receive(body);
  if (after) after(body);
  render();
}

const socket = liveSocket({
  path: () => `${api()}/ws`,
  onStatus: (on) => setConnected(on),
  onMessage: (message) => {
    if (["expired", "moved", "closed"].includes(message.type)) page.gone = message.type;
    else if (message.type === "view") receive(message);
    render();
  },
  gameOver: () => {
    if (!(ROOM || TEAM)) return false;
    page.gone = page.gone || "expired";
    render();
    return true;
  },
  done: () => Boolean(page.gone),
  // A dropped phone comes back to where it was: the state first, then the socket again.
  recover: async () => {
    if (!(await fetchState())) return false;
    render();
    return true;
  },
});

// The state as the kiosk has it now; false when the link is gone (the page says so).
async function fetchState() {
  const { status, body } = await request(api());
  const gone = goneFor(status, body);
  if (gone) {
    page.gone = gone;
    render();
    return false;
  }
  if (status === 200) receive(body);
  return true;
}

function setConnected(on) {
  page.connected = on;
  showConnection(on, t);
}

// ---- what the kiosk says ----------------------------------------------------------------

function receive(message) {
  const previous = page.view;
  // The computer's shot can come on the socket before the answer to the shot that gave it the
  // turn: that answer is the older view (else the page would say the computer aims, with no
  // Fire, until the next change).
  const older = olderView(message.view, previous);
  // The same race at the start: the socket opened as the page came up says "no game yet", and
  // on a busy phone that can be read after the answer to Start. A phone's own table (solo,
  // the daily challenge) never goes back to no game, so that message is the older one.
  const before = previous && !message.view && MODE === "own";
  if (older || before) return;
  page.view = message.view;
  page.room = message.room ?? null;
  if (message.daily) page.daily = message.daily;
  if (message.phones) page.phones = message.phones;
  for (const e of message.events || []) if (e.event === "shot") page.lastShot = e;
  const view = page.view;
  if (!view || previous?.game !== view.game) {
    page.selected = null;
    page.editing = null;
    if (previous && view && previous.game !== view.game) page.lastShot = null;
  }
  if (view && page.editing && !view.may_place) page.editing = null;
  if (view && view.phase !== "over") page.starting = false;
  if (page.selected && view?.radar && shotAt(view.radar, page.selected)) page.selected = null;
  if (page.tab === "daily" && view?.phase === "over" && !page.board) loadBoard();
}

function shotAt(radar, code) {
  return radar.hit.includes(code) || radar.miss.includes(code);
}

async function loadBoard() {
  const { status, body } = await request("/api/classic/leaderboard");
  if (status === 200) {
    page.board = body;
    render();
  }
}

// ---- playing ----------------------------------------------------------------------------

function myTurn(view) {
  return view && view.you != null && view.phase === "playing" && view.turn === view.you && !waitingForPhones(view);
}

function waitingForPhones(view) {
  return MODE === "team" && page.phones && !(page.phones[0] && page.phones[1]) && view?.mode === "duel";
}

function aim(code) {
  const view = page.view;
  if (!myTurn(view) || shotAt(view.radar, code)) return;
  if (page.selected === code) {
    fire();
    return;
  }
  page.selected = code;
  page.note = null;
  render();
}

function fire() {
  const cell = page.selected;
  if (!cell) return;
  page.note = null;
  act("/fire", "POST", { cell }, () => {
    page.selected = null;
  });
}

function savedName() {
  try {
    return localStorage.getItem(NAME_KEY) || "";
  } catch {
    return "";
  }
}

function keepName(name) {
  try {
    if (name) localStorage.setItem(NAME_KEY, name);
  } catch {
    /* private mode: the name is simply not remembered */
  }
}

function nameField(id) {
  return h("input", { id, class: "name", type: "text", maxlength: "20", autocomplete: "nickname", placeholder: t("c_name_hint"), value: savedName() });
}

function typedName(id) {
  const name = document.getElementById(id)?.value.trim() || "";
  keepName(name);
  return name || null;
}

function startSolo(level) {
  page.note = null;
  page.lastShot = null;
  act("/solo", "POST", { level, name: typedName("solo-name") });
}

// ---- re-placing the fleet ("pick a ship, tap, rotate") ----------------------------------

function startEditing() {
  page.editing = { ships: page.view.fleet.map(shipCells), chosen: 0 };
  page.note = { key: "c_replace_hint", kind: "info" };
  render();
}

function shipName(i) {
  return t(`c_ship_${SHIPS[i]}`);
}

function placed(cells, chosen) {
  // Inside the grid and on no other ship (touching is allowed): the same rules the kiosk checks.
  const points = cells.map(parseCell);
  if (points.some((p) => !p)) return { key: "c_off_grid", params: { ship: shipName(chosen) }, kind: "error" };
  const clash = page.editing.ships.findIndex((ship, i) => i !== chosen && ship.some((c) => cells.includes(c)));
  if (clash >= 0) return { key: "c_overlap", params: { ship: shipName(chosen), other: shipName(clash) }, kind: "error" };
  return null;
}

function laid(bow, length, horizontal) {
  const start = parseCell(bow);
  const cells = [];
  for (let k = 0; k < length; k++) {
    const col = horizontal ? start.col + k : start.col;
    const row = horizontal ? start.row : start.row + k;
    cells.push(col < SIZE && row <= SIZE ? cellCode(col, row) : `X${k}`);
  }
  return cells;
}

function horizontal(cells) {
  return cells.length < 2 || parseCell(cells[0]).row === parseCell(cells[1]).row;
}

function tapEdit(code) {
  const editing = page.editing;
  const owner = editing.ships.findIndex((ship) => ship.includes(code));
  if (owner >= 0 && owner !== editing.chosen) {
    editing.chosen = owner; // a tap on another ship picks it up
    page.note = { key: "c_picked", params: { ship: shipName(owner) }, kind: "info" };
    render();
    return;
  }
  const i = editing.chosen;
  const cells = laid(code, LENGTHS[i], horizontal(editing.ships[i]));
  moveTo(i, cells);
}

function moveTo(i, cells) {
  const problem = placed(cells, i);
  if (problem) {
    page.note = problem;
  } else {
    page.editing.ships[i] = cells;
    page.note = { key: "c_moved", params: { ship: shipName(i), cells: `${cells[0]}-${cells[cells.length - 1]}` }, kind: "ok" };
  }
  render();
}

function rotate() {
  const i = page.editing.chosen;
  const ship = page.editing.ships[i];
  moveTo(i, laid(ship[0], LENGTHS[i], !horizontal(ship)));
}

function saveFleet() {
  const ships = page.editing.ships.map((cells) => `${cells[0]}-${cells[cells.length - 1]}`);
  act("/fleet", "POST", { ships }, () => {
    page.editing = null;
    page.note = { key: "c_fleet_saved", kind: "ok" };
  });
}

// ---- what the grids show ----------------------------------------------------------------

function radarPaint(radar) {
  const marks = new Map();
  for (const c of radar.miss) marks.set(c, "miss");
  for (const c of radar.hit) marks.set(c, "hit");
  const sunk = radar.sunk.map((s) => s.cells);
  for (const cells of sunk) for (const c of cells) marks.set(c, "sunk");
  return { marks, sunk };
}

function fleetPaint(view) {
  const marks = new Map();
  for (const c of view.incoming.miss) marks.set(c, "miss");
  for (const c of view.incoming.hit) marks.set(c, "hit");
  const sunk = view.radars[1 - view.you].sunk.map((s) => s.cells);
  for (const cells of sunk) for (const c of cells) marks.set(c, "sunk");
  return { marks, ships: view.fleet.map(shipCells), sunk };
}

function lastOn(player) {
  const e = page.lastShot;
  return e && e.player === player ? e.cell : null;
}

function radarBlock(view, shooter, title, interactive) {
  const paint = radarPaint(view.radars[shooter]);
  return h(
    "section",
    { class: "board-block" },
    h("h3", {}, title),
    renderGrid({
      id: `radar-${shooter}`,
      label: title,
      marks: paint.marks,
      sunk: paint.sunk,
      selected: interactive ? page.selected : null,
      last: lastOn(shooter),
      interactive,
      onTap: aim,
    }),
    // Fire right under the grid it fires at (a second tap on the square does the same).
    interactive ? fireRow(view) : null,
  );
}

function fleetBlock(view) {
  const paint = fleetPaint(view);
  return h(
    "section",
    { class: "board-block own" },
    h("h3", {}, t("c_your_fleet")),
    renderGrid({ id: "fleet", label: t("c_your_fleet"), marks: paint.marks, ships: paint.ships, sunk: paint.sunk, last: lastOn(1 - view.you) }),
  );
}

function shipsLeft(view, shooter) {
  const sunk = view.radars[shooter].sunk.map((s) => s.ship);
  return h(
    "ul",
    { class: "fleet-list" },
    SHIPS.map((ship, i) => h("li", { class: sunk.includes(ship) ? "sunk" : "" }, `${shipName(i)} ${"\u25a0".repeat(LENGTHS[i])}`)),
  );
}

// ---- the lines above the grids ----------------------------------------------------------

function name(view, player) {
  const given = view.players[player];
  if (view.mode !== "duel" && player === 1) return t("c_computer");
  return given;
}

function turnLine(view) {
  if (view.paused) return h("p", { class: "turn paused", id: "turn" }, t("paused", { reason: view.paused }));
  let text;
  let cls = "";
  if (view.phase === "over") {
    cls = "over";
    text = view.you != null && view.winner === view.you ? t("c_you_won") : t("c_winner", { name: name(view, view.winner) });
  } else if (waitingForPhones(view)) {
    text = t("c_waiting_for_phones");
  } else if (view.mode === "daily") {
    text = t("c_daily_turn");
  } else if (myTurn(view)) {
    cls = "mine";
    text = page.selected ? t("c_fire_hint", { cell: page.selected }) : t("c_your_turn");
  } else if (view.mode === "solo" && view.turn === 1) {
    text = t("c_computer_aims");
  } else {
    text = t("c_their_turn", { name: name(view, view.turn) });
  }
  return h("p", { class: `turn ${cls}`, id: "turn" }, text);
}

function eventLine(view) {
  const e = page.lastShot;
  if (!e) return h("p", { class: "event", id: "event" }, "\u00a0");
  const mine = view.you != null && e.player === view.you;
  const shooter = name(view, e.player);
  let text;
  if (e.result === "sunk") {
    const ship = t(`c_ship_${e.ship}`);
    // A player's own ship sunk is "your" ship; a spectator sees whose it was from the grid.
    if (mine) text = t("c_you_sank", { ship });
    else if (view.you != null) text = t("c_they_sank_yours", { name: shooter, ship });
    else text = t("c_they_sank", { name: shooter, ship });
  } else {
    const result = t(`c_result_${e.result}`);
    text = mine ? t("c_your_shot", { cell: e.cell, result }) : t("c_their_shot", { name: shooter, cell: e.cell, result });
  }
  return h("p", { class: `event result-${e.result}`, id: "event" }, text);
}

function noteLine() {
  return messageLine(page.note, t);
}

function tally(view, player) {
  const counts = { shots: view.shots[player], hits: view.hits[player] };
  return `${t("c_n_shots", counts)}, ${t("c_n_hits", counts)}`;
}

// ---- blocks -----------------------------------------------------------------------------

function fireRow(view) {
  if (!myTurn(view)) return null;
  const fireButton = h(
    "div",
    { class: "actions fire" },
    h("button", { id: "fire", class: "primary", disabled: !page.selected || page.busy, onclick: fire }, page.selected ? t("c_fire_at", { cell: page.selected }) : t("c_pick_square")),
  );
  if (!page.selected) return fireButton;
  // A square of a phone's grid is smaller than a fingertip (10 of them across 390 px): a tap
  // only aims, and these move the aim one square, each a full-size button.
  const nudge = (dc, dr, sign, key) => h("button", { class: "nudge", "data-nudge": key, "aria-label": t(`c_nudge_${key}`), onclick: () => nudgeAim(dc, dr) }, sign);
  return h("div", { class: "aim" }, fireButton, h("div", { class: "actions nudges" }, nudge(-1, 0, "\u2190", "left"), nudge(0, -1, "\u2191", "up"), nudge(0, 1, "\u2193", "down"), nudge(1, 0, "\u2192", "right")));
}

function nudgeAim(dc, dr) {
  const at = parseCell(page.selected);
  if (!at) return;
  const col = at.col + dc;
  const row = at.row + dr;
  if (col < 0 || col >= SIZE || row < 1 || row > SIZE) return;
  page.selected = cellCode(col, row);
  page.note = page.view?.radar && shotAt(page.view.radar, page.selected) ? { key: "c_err_already_fired", kind: "error" } : null;
  render();
}

function playerGame(view) {
  const me = view.you;
  const enemy = 1 - me;
  const out = [
    turnLine(view),
    eventLine(view),
    h(
      "div",
      { class: "boards" },
      radarBlock(view, me, t("c_enemy_waters", { name: name(view, enemy) }), myTurn(view)),
      fleetBlock(view),
    ),
    noteLine(),
    h("p", { class: "tally", id: "tally" }, tally(view, me)),
    shipsLeft(view, me),
  ];
  if (view.may_place && view.phase !== "over") {
    out.push(h("div", { class: "actions" }, h("button", { id: "replace", onclick: startEditing }, t("c_replace"))));
  }
  return out;
}

function editor(view) {
  const editing = page.editing;
  const marks = new Map();
  for (const c of editing.ships[editing.chosen]) marks.set(c, "chosen");
  return [
    h("h2", { class: "headline" }, t("c_replace_title")),
    h(
      "div",
      { class: "chips", role: "group", "aria-label": t("c_ships") },
      SHIPS.map((_, i) =>
        h("button", { class: `chip${i === editing.chosen ? " selected" : ""}`, "data-ship": SHIPS[i], onclick: () => {
          editing.chosen = i;
          page.note = { key: "c_picked", params: { ship: shipName(i) }, kind: "info" };
          render();
        } }, h("span", { class: "size" }, shipName(i)), h("span", { class: "dots" }, "\u25a0".repeat(LENGTHS[i]))),
      ),
    ),
    h(
      "section",
      { class: "board-block editing" },
      renderGrid({ id: "editor", label: t("c_your_fleet"), marks, ships: editing.ships, interactive: true, onTap: tapEdit, shipClass: (i) => (i === editing.chosen ? "chosen" : "") }),
    ),
    noteLine(),
    h(
      "div",
      { class: "actions" },
      h("button", { id: "rotate", onclick: rotate }, t("c_rotate")),
      h("button", { id: "cancel", onclick: () => {
        page.editing = null;
        page.note = null;
        render();
      } }, t("c_cancel")),
      h("button", { id: "done", class: "primary", disabled: page.busy, onclick: saveFleet }, t("c_done")),
    ),
  ];
}

function resultCard(view) {
  const rate = (p) => (view.shots[p] ? Math.round((100 * view.hits[p]) / view.shots[p]) : 0);
  const rows = [0, 1]
    .filter((p) => view.mode !== "daily" || p === 0)
    .map((p) => h("tr", { class: view.winner === p ? "winner" : "" }, h("th", {}, name(view, p)), h("td", {}, view.shots[p]), h("td", {}, view.hits[p]), h("td", {}, `${rate(p)}%`), h("td", {}, view.sunk[1 - p].length)));
  return h(
    "section",
    { class: "result", id: "result" },
    h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, t("c_shots")), h("th", {}, t("c_hits")), h("th", {}, t("c_hit_rate")), h("th", {}, t("c_sunk")))), h("tbody", {}, rows)),
  );
}

function overBlock(view, actions = null) {
  const me = view.you ?? 0;
  const out = [turnLine(view), eventLine(view), resultCard(view), actions];
  out.push(h("div", { class: "boards" }, radarBlock(view, me, t("c_enemy_waters", { name: name(view, 1 - me) }), false), view.you != null ? fleetBlock(view) : radarBlock(view, 1 - me, t("c_shots_of", { name: name(view, 1 - me) }), false)));
  return out;
}

function startForm(view) {
  return [
    h("h2", { class: "headline" }, t("c_solo_title")),
    h("p", { class: "hint" }, t("c_solo_hint")),
    h("label", { class: "field", for: "solo-name" }, t("c_your_name"), nameField("solo-name")),
    h("p", { class: "hint" }, t("c_level")),
    h("div", { class: "actions levels" }, LEVELS.map((level) => h("button", { class: level === "normal" ? "primary" : "", "data-level": level, disabled: page.busy, onclick: () => startSolo(level) }, t(`c_level_${level}`)))),
    noteLine(),
    view ? h("div", { class: "actions" }, h("button", { id: "back", onclick: () => {
      page.starting = false;
      render();
    } }, t("c_back"))) : null,
  ];
}

// ---- play with friends (the owner's room) -----------------------------------------------

function friendsBlock(view) {
  if (MODE !== "own" || !view || view.mode === "daily") return null;
  const room = page.room;
  if (!room) {
    return h("section", { class: "friends", id: "friends" }, h("div", { class: "actions" }, h("button", { id: "open-room", onclick: () => act("/room", "POST", {}) }, t("c_play_with_friends"))));
  }
  const url = `${location.origin}${room.link}`;
  const dueling = view.mode === "duel" && view.phase !== "over";
  let state;
  if (dueling) state = t("c_friend_dueling");
  else if (!room.friend) state = t("c_friend_none");
  else if (room.ready) state = t("c_friend_ready");
  else state = t("c_friend_watching");
  return h(
    "section",
    { class: "friends", id: "friends" },
    h("h3", {}, t("c_room_title")),
    h("p", { class: "hint" }, t("c_room_hint")),
    h("img", { class: "qr", src: `/api/classic/play/room/qr.svg?r=${encodeURIComponent(room.link.slice(-6))}`, alt: t("c_room_qr") }),
    h("p", { class: "link" }, h("a", { href: url, id: "room-link" }, url)),
    h("p", { class: `friend-state${room.ready ? " ready" : ""}`, id: "friend-state" }, state),
    h(
      "div",
      { class: "actions" },
      navigator.share ? h("button", { onclick: () => navigator.share({ url }).catch(() => {}) }, t("c_share")) : null,
      room.ready && !dueling ? h("button", { id: "start-duel", class: "primary", disabled: page.busy, onclick: () => startDuel(view) }, t("c_start_duel")) : null,
      h("button", { id: "close-room", onclick: () => closeRoom(view) }, t("c_close_room")),
    ),
  );
}

// Both ask first where a game would end without a word: the duel replaces a solo game under
// way; closing the room mid-duel ends the duel (the owner gets a game of their own). A second
// tap does it, and the page says what happened.
function confirmed(action, question) {
  if (page.armed === action) {
    page.armed = null;
    return true;
  }
  page.armed = action;
  page.note = { key: question, kind: "error" };
  render();
  return false;
}

function startDuel(view) {
  const underWay = view.mode === "solo" && view.phase !== "over" && (view.shots?.[0] || 0) > 0;
  if (underWay && !confirmed("duel", "c_confirm_duel")) return;
  act("/duel", "POST", { name: savedName() || null }, () => {
    if (underWay) page.note = { key: "c_duel_replaced_solo", kind: "info" };
  });
}

function closeRoom(view) {
  const dueling = view.mode === "duel" && view.phase !== "over";
  if (dueling && !confirmed("close", "c_confirm_close_duel")) return;
  act("/room", "DELETE", undefined, () => {
    page.note = { key: dueling ? "c_closed_duel_ended" : "c_closed_room", kind: "info" };
  });
}

// ---- the daily challenge ----------------------------------------------------------------

function dailyContent(view) {
  const daily = page.daily || {};
  const out = [h("h2", { class: "headline" }, t("c_daily_title", { date: daily.date || "" }))];
  if (!view) {
    out.push(h("p", { class: "hint" }, t("c_daily_hint")));
    out.push(h("div", { class: "actions" }, h("button", { id: "daily-start", class: "primary", disabled: page.busy, onclick: () => act("/start", "POST", { name: savedName() || null }) }, t("c_daily_start"))));
    out.push(noteLine());
  } else if (view.phase !== "over") {
    out.push(turnLine(view), eventLine(view));
    out.push(h("div", { class: "boards single" }, radarBlock(view, 0, t("c_daily_waters"), myTurn(view))));
    out.push(noteLine(), h("p", { class: "tally", id: "tally" }, tally(view, 0)), shipsLeft(view, 0));
  } else {
    out.push(h("p", { class: "turn over", id: "turn" }, t("c_daily_done", { shots: view.shots[0] })));
    if (daily.name) {
      out.push(h("p", { class: "hint", id: "entered" }, t("c_daily_entered", { name: daily.name })));
    } else {
      out.push(
        h("label", { class: "field", for: "daily-name" }, t("c_daily_name"), nameField("daily-name")),
        h("div", { class: "actions" }, h("button", { id: "daily-enter", class: "primary", disabled: page.busy, onclick: () => act("/name", "POST", { name: typedName("daily-name") }, () => loadBoard()) }, t("c_daily_enter"))),
      );
    }
    out.push(noteLine());
    out.push(h("div", { class: "boards single" }, radarBlock(view, 0, t("c_daily_waters"), false)));
  }
  out.push(leaderboard());
  return out;
}

function leaderboard() {
  const board = page.board;
  if (!board) return null;
  const mine = page.daily?.name;
  return h(
    "section",
    { class: "leaderboard", id: "leaderboard" },
    h("h3", {}, t("c_leaderboard", { date: board.date })),
    board.entries.length
      ? h("ol", {}, board.entries.map((e) => h("li", { class: mine && e.player === mine ? "mine" : "" }, h("span", {}, e.player), h("span", {}, t("c_n_shots", { shots: e.shots })))))
      : h("p", { class: "hint" }, t("c_leaderboard_empty")),
  );
}

// ---- the roles --------------------------------------------------------------------------

function ownContent() {
  const view = page.view;
  const tabs = h(
    "nav",
    { class: "tabs", role: "tablist" },
    [["play", t("c_tab_play")], ["daily", t("c_tab_daily")]].map(([id, label]) =>
      h("button", { role: "tab", "data-tab": id, "aria-selected": page.tab === id ? "true" : "false", onclick: () => switchTab(id) }, label),
    ),
  );
  if (page.tab === "daily") return [tabs, ...dailyContent(view)];
  let body;
  if (!view || page.starting) body = startForm(view);
  else if (page.editing) body = editor(view);
  else if (view.phase === "over") {
    body = overBlock(view, h("div", { class: "actions" }, h("button", { id: "new-game", class: "primary", onclick: () => {
      page.starting = true;
      page.note = null;
      render();
    } }, t("c_new_game"))));
  }
  else body = playerGame(view);
  return [tabs, ...body, page.editing || page.starting ? null : friendsBlock(view)];
}

async function switchTab(id) {
  if (page.tab === id) return;
  page.tab = id;
  page.view = null;
  page.note = null;
  page.selected = null;
  page.editing = null;
  page.lastShot = null;
  history.replaceState(null, "", id === "daily" ? "#daily" : location.pathname);
  render();
  if (!(await fetchState())) return;
  if (id === "daily") await loadBoard();
  render();
  socket.reopen();
}

function spectating(view) {
  const out = [turnLine(view), eventLine(view)];
  out.push(
    h(
      "div",
      { class: "boards" },
      radarBlock(view, 0, t("c_shots_of", { name: name(view, 0) }), false),
      radarBlock(view, 1, t("c_shots_of", { name: name(view, 1) }), false),
    ),
  );
  return out;
}

function roomContent() {
  const view = page.view;
  const room = page.room;
  const owner = view ? name(view, 0) : "";
  const out = [h("h2", { class: "headline", id: "room-title" }, view ? t("c_room_of", { name: owner }) : t("c_room"))];
  if (!view) {
    out.push(h("p", { class: "notice" }, t("c_no_game")));
    return out;
  }
  if (view.you != null) {
    if (page.editing) return [...out, ...editor(view)];
    // After the duel the friend may say Ready again for the next one.
    return [...out, ...(view.phase === "over" ? overBlock(view, h("section", {}, readyBlock(owner, true))) : playerGame(view))];
  }
  if (room?.role === "friend" && view.mode !== "duel") {
    out.push(...readyBlock(owner));
  } else {
    out.push(h("p", { class: "hint", id: "watching" }, t("c_watching")));
  }
  if (view.phase === "over") out.push(resultCard(view));
  return [...out, ...spectating(view)];
}

// `rematch`: the friend has just played the duel, so the page offers the next one (they are
// not watching anything then).
function readyBlock(owner, rematch = false) {
  const out = [];
  if (page.room?.ready) out.push(h("p", { class: "friend-state ready", id: "friend-state" }, t("c_ready_waiting", { name: owner })));
  else {
    out.push(h("p", { class: "hint", id: "ready-hint" }, t(rematch ? "c_rematch_hint" : "c_ready_hint", { name: owner })));
    out.push(h("label", { class: "field", for: "ready-name" }, t("c_your_name"), nameField("ready-name")));
    out.push(h("div", { class: "actions" }, h("button", { id: "ready", class: "primary", disabled: page.busy, onclick: () => act("/ready", "POST", { name: typedName("ready-name") }) }, t("c_ready"))));
  }
  out.push(noteLine());
  return out;
}

function teamContent() {
  const view = page.view;
  if (!view) return [h("p", { class: "notice" }, t("loading"))];
  if (page.editing) return editor(view);
  return view.phase === "over" ? overBlock(view) : playerGame(view);
}

function goneContent() {
  if (page.gone === "throttled") return [h("h2", { class: "headline" }, t("too_many_attempts"))];
  if (page.gone === "closed") return [h("h2", { class: "headline", id: "closed" }, t("c_room_closed")), h("p", { class: "hint" }, t("c_room_closed_hint")), h("p", { class: "watch" }, h("a", { href: "/classic", class: "button" }, t("c_own_game")))];
  if (page.gone === "expired") return [h("h2", { class: "headline", id: "expired" }, t("link_expired")), h("p", { class: "hint" }, t(ROOM ? "c_room_closed_hint" : "scan_again"))];
  // Held by another phone, or moved: nothing of the game, not even a name.
  return [h("h2", { class: "headline", id: "elsewhere" }, t(`gone_${page.gone}`)), h("p", { class: "hint" }, t(`gone_${page.gone}_hint`))];
}

function render() {
  const main = document.getElementById("app");
  let content;
  if (page.gone) {
    page.view = null;
    socket.close();
    content = goneContent();
  } else if (MODE === "room") content = roomContent();
  else if (MODE === "team") content = teamContent();
  else content = ownContent();
  document.getElementById("connection").hidden = Boolean(page.gone);
  const view = page.view;
  document.getElementById("title").textContent = MODE === "team" && view && !page.gone ? view.players[view.you] : t("c_title");
  document.body.dataset.mode = MODE;
  document.body.dataset.phase = view?.phase || "none";
  // Typing a name must not be lost to a re-render from the socket.
  const focused = document.activeElement?.id;
  const typed = focused ? document.getElementById(focused)?.value : null;
  main.replaceChildren(...content.filter(Boolean));
  if (focused) {
    const again = document.getElementById(focused);
    if (again) {
      if (typed != null && "value" in again) again.value = typed;
      again.focus();
    }
  }
}

// ---- start ------------------------------------------------------------------------------

async function start() {
  const language = pickLanguage(navigator.languages?.length ? navigator.languages : [navigator.language]);
  document.documentElement.lang = language;
  page.t = await loadCatalog(language);
  document.title = t("c_title");
  setConnected(false);
  if (!(await fetchState())) return;
  if (page.tab === "daily") await loadBoard();
  render();
  socket.open();
}

window.dartship = { page, aim };
start();
