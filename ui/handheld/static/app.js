// The phone page: a team's private placement and live game view, or the public spectator view.
// The team's secret is the last part of the path (/team/<token>); the spectator page is /watch.

import { h, messageLine as sharedMessageLine } from "./dom.js";
import { request } from "./net.js";
import { liveSocket, olderView, showConnection } from "./live.js";
import { BoardView } from "./board.js";
import { loadCatalog, pickLanguage } from "./i18n.js";
import { makeRules } from "./rules.js";

const TOKEN = (location.pathname.match(/^\/team\/([A-Za-z0-9_-]{1,64})$/) || [])[1] || null;
const API = TOKEN ? `/api/team/${TOKEN}` : null;
const SOCKET_PATH = API ? `${API}/ws` : "/api/game/ws";

const page = {
  t: (key) => key,
  view: null,
  events: [],
  recent: [], // the last darts heard since the page opened, newest first
  boardProfile: null,
  rules: null,
  board: null,
  editing: false,
  slots: [], // [{length, ship: [codes] | null}]
  selected: 0,
  draft: [],
  message: null, // {key, params, kind} or {text, kind}
  tab: null,
  tabTurn: null,
  connected: false,
  // The page has nothing more to show: "expired" | "throttled" | "moved" (the team now plays
  // on another phone) | "other_phone" (another phone holds this link) | "other_team" (this
  // phone holds the other team's link).
  gone: null,
  armedNext: false, // Next tapped once during the visit: a second tap ends it
  busy: false, // a request of ours is on its way
};
const HELD_ELSEWHERE = ["other_phone", "other_team"];


const t = (key, params) => page.t(key, params);

// ---- talking to the kiosk ---------------------------------------------------------------

// What a refused link means for the whole page (null: the link still works here).
function goneFor(status, body) {
  if (status === 404) return "expired";
  if (status === 429) return "throttled";
  if (status === 403 && HELD_ELSEWHERE.includes(body?.error)) return body.error;
  return null;
}

function errorText(status, body) {
  if (status === 404) return { key: "link_expired" };
  if (status === 429) return { key: "too_many_attempts" };
  const code = body?.error;
  const known = ["game_started", "locked", "too_large", "bad_json", "not_json", "busy", "not_your_visit", "not_asked"];
  if (code && known.includes(code)) return { key: `err_${code}` };
  if (body?.message) return { text: body.message };
  return { key: "err_network" };
}

const socket = liveSocket({
  path: () => SOCKET_PATH,
  onStatus: (on) => setConnected(on),
  onMessage: (message) => {
    if (message.type === "expired" || message.type === "moved") {
      page.gone = message.type;
      render();
    } else if (message.type === "view") {
      receive(message.view, message.events || []);
    }
  },
  gameOver: () => {
    if (!TOKEN) return false;
    page.gone = page.gone || "expired";
    render();
    return true;
  },
  done: () => Boolean(page.gone),
  recover: async () => {
    if (!TOKEN) return true;
    // A dead token must not be hammered: ask once, the 404 (or 403) ends it.
    const { status, body } = await request(API);
    const gone = goneFor(status, body);
    if (gone) {
      page.gone = gone;
      render();
      return false;
    }
    return true;
  },
});

function setConnected(on) {
  page.connected = on;
  showConnection(on, t);
}

// ---- state from the kiosk ---------------------------------------------------------------

async function ensureBoard(profile) {
  if (page.boardProfile === profile) return;
  const { status, body } = await request(`/api/board/${encodeURIComponent(profile)}`);
  if (status !== 200) throw new Error(`board ${status}`);
  page.rules = makeRules(body);
  page.board = new BoardView(body, t("board_label"));
  page.board.onTap = tap;
  page.boardProfile = profile;
}

async function receive(view, events) {
  if (view) await ensureBoard(view.rules.board);
  const previous = page.view;
  // Darts thrown while the answer to Next (or Lock in, or a vote) is on its way come on the
  // socket first: that answer is the older view. Its darts still count among the recent ones
  // (the newer view may be an answer, which brings none).
  const stale = olderView(view, previous);
  if (!stale) page.view = view;
  if (events.length) page.events = events;
  for (const e of events) {
    // A padded miss (Next before the visit's last dart) was never thrown: not a "recent dart".
    if (e.event === "dart" && !e.padded) page.recent.unshift(e);
    if (e.event === "undone") page.recent.shift();
    // Correct changes the last dart: it reads as corrected, not as first announced.
    if (e.event === "corrected" && page.recent.length) {
      page.recent[0] = { ...page.recent[0], cell: e.to, result: e.result, ship: e.ship };
    }
  }
  page.recent = page.recent.slice(0, 6);
  if (previous && previous.game !== view?.game) page.recent = [];
  if (!view || stale) {
    render();
    return;
  }
  if (TOKEN) {
    const placing = view.state.phase === "placing";
    const newGame = !previous || previous.game !== view.game;
    if (newGame) startEditing(view, !view.state.placed[view.you], true);
    if (!placing && page.editing) {
      page.editing = false;
      page.draft = [];
      page.message = { key: "started_with_locked_fleet", kind: "info" };
    }
  }
  render();
}

function startEditing(view, editing, restore = false) {
  page.slots = [...view.rules.fleet].sort((a, b) => b - a).map((length) => ({ length, ship: null }));
  // A fleet placed but not yet locked in survives a reload: it is kept on this phone only.
  const ships = view.fleet?.length ? view.fleet : restore && editing ? keptShips(view) : [];
  for (const ship of ships) {
    const slot = page.slots.find((s) => s.length === ship.length && !s.ship);
    if (slot) slot.ship = ship;
  }
  page.draft = [];
  page.editing = editing;
  selectNextSlot();
}

// ---- the unlocked fleet, kept on the phone until Lock in --------------------------------

function draftKey(view) {
  return `dartship-fleet:${TOKEN}:${view.game}`;
}

function keptShips(view) {
  let ships;
  try {
    ships = JSON.parse(localStorage.getItem(draftKey(view)) || "[]");
  } catch {
    return [];
  }
  if (!Array.isArray(ships)) return [];
  // Only ships that still fit this board, apart from each other: anything else is dropped.
  const kept = [];
  const used = new Set();
  for (const ship of ships) {
    if (!Array.isArray(ship) || !ship.every((c) => typeof c === "string")) continue;
    if (!page.rules.fits(ship, ship.length, used).some((f) => f.join() === ship.join())) continue;
    ship.forEach((c) => used.add(c));
    kept.push(ship);
  }
  return kept;
}

function keepDraft() {
  const view = page.view;
  if (!TOKEN || !view) return;
  try {
    if (page.editing && view.state.phase === "placing") {
      const ships = page.slots.map((s) => s.ship).filter(Boolean);
      localStorage.setItem(draftKey(view), JSON.stringify(ships));
    } else {
      localStorage.removeItem(draftKey(view));
    }
  } catch {
    // Private mode or a full storage: the fleet then lives only as long as the page.
  }
}

function selectNextSlot() {
  const free = page.slots.findIndex((s) => !s.ship);
  page.selected = free;
}

// ---- placing ----------------------------------------------------------------------------

function blockedCells(exceptSlot = -1) {
  const blocked = new Set();
  page.slots.forEach((slot, i) => {
    if (slot.ship && i !== exceptSlot) slot.ship.forEach((c) => blocked.add(c));
  });
  return blocked;
}

function tap(code) {
  if (!TOKEN || !page.editing || page.view?.state.phase !== "placing") return;
  const owner = page.slots.findIndex((s) => s.ship && s.ship.includes(code));
  if (owner >= 0) {
    page.slots[owner].ship = null;
    page.selected = owner;
    page.draft = [];
    page.message = { key: "ship_removed", params: { n: page.slots[owner].length }, kind: "info" };
    render();
    return;
  }
  if (page.draft.includes(code)) {
    page.draft = page.draft.filter((c) => c !== code);
    page.message = null;
    render();
    return;
  }
  if (page.selected < 0) {
    page.message = { key: "fleet_complete_hint", kind: "info" };
    render();
    return;
  }
  const length = page.slots[page.selected].length;
  const wanted = [...page.draft, code];
  const fits = page.rules.fits(wanted, length, blockedCells());
  if (!fits.length) {
    page.board.flash(code);
    page.message = page.draft.length
      ? { key: "not_in_line", params: { cell: code }, kind: "error" }
      : { key: "no_room", params: { cell: code, n: length }, kind: "error" };
    render();
    return;
  }
  page.draft = wanted;
  if (wanted.length === length) {
    page.slots[page.selected].ship = fits[0];
    page.draft = [];
    page.message = { key: "ship_placed", params: { n: length, ship: fits[0].join("-") }, kind: "ok" };
    selectNextSlot();
  } else {
    page.message = { key: "keep_going", params: { left: length - wanted.length }, kind: "info" };
  }
  render();
}

function chooseSlot(index) {
  page.selected = index;
  page.draft = [];
  if (page.slots[index].ship) {
    page.slots[index].ship = null;
    page.message = { key: "ship_removed", params: { n: page.slots[index].length }, kind: "info" };
  } else {
    page.message = null;
  }
  render();
}

async function randomFleet() {
  const { status, body } = await request(`${API}/random`, "POST", {});
  if (status !== 200) {
    page.message = { ...errorText(status, body), kind: "error" };
    render();
    return;
  }
  startEditing({ ...page.view, fleet: body.ships }, true);
  page.message = { key: "random_done", kind: "ok" };
  render();
}

function clearFleet() {
  startEditing({ ...page.view, fleet: [] }, true);
  page.message = null;
  render();
}

async function lockIn() {
  const ships = page.slots.map((s) => s.ship).filter(Boolean);
  const problem = page.rules.fleetError(ships, page.view.rules.fleet);
  if (problem) {
    page.message = { ...problem, kind: "error" };
    render();
    return;
  }
  const { status, body } = await request(`${API}/fleet`, "POST", { ships });
  if (status !== 200) {
    page.message = { ...errorText(status, body), kind: "error" };
    render();
    return;
  }
  page.editing = false;
  page.message = { key: "locked_in", kind: "ok" };
  await receive(body.view, []);
}

async function changeFleet() {
  // The draft starts from the locked fleet; then the kiosk is told this team is no longer ready.
  startEditing(page.view, true);
  page.message = { key: "changing_hint", kind: "info" };
  render();
  const { status, body } = await request(`${API}/fleet`, "DELETE");
  if (status !== 200) {
    page.message = { ...errorText(status, body), kind: "error" };
    render();
  }
}

// ---- what the boards show ---------------------------------------------------------------

function shotsPaint(view, shooter) {
  const states = new Map();
  const marks = new Map();
  for (const [cell, result] of Object.entries(view.shots[shooter])) {
    if (result === "miss") marks.set(cell, "miss");
    else states.set(cell, ["hit"]);
    if (result !== "miss") marks.set(cell, "hit");
  }
  for (const ship of view.sunk_ships[1 - shooter]) for (const cell of ship) states.set(cell, ["sunk"]);
  return { states, marks };
}

function fleetPaint(view, team) {
  const states = new Map();
  const marks = new Map();
  for (const ship of view.fleet || []) for (const cell of ship) states.set(cell, ["ship"]);
  for (const cell of view.damage || []) {
    states.set(cell, ["ship", "hit"]);
    marks.set(cell, "hit");
  }
  for (const ship of view.sunk_ships[team]) for (const cell of ship) states.set(cell, ["ship", "sunk"]);
  for (const [cell, result] of Object.entries(view.shots[1 - team])) if (result === "miss") marks.set(cell, "miss");
  return { states, marks };
}

function editorPaint() {
  const states = new Map();
  page.slots.forEach((slot, i) => {
    if (slot.ship) for (const cell of slot.ship) states.set(cell, ["ship", `ship-${i}`]);
  });
  if (page.draft.length && page.selected >= 0) {
    const fits = page.rules.fits(page.draft, page.slots[page.selected].length, blockedCells());
    for (const ship of fits) for (const cell of ship) if (!page.draft.includes(cell)) states.set(cell, ["candidate"]);
  }
  for (const cell of page.draft) states.set(cell, ["draft"]);
  return { states, marks: new Map() };
}

// ---- rendering --------------------------------------------------------------------------

function messageLine() {
  return sharedMessageLine(page.message, t);
}

function shipsLine(view, team) {
  const sunk = [...view.state.sunk[team]];
  return h(
    "ul",
    { class: "ships" },
    [...view.rules.fleet]
      .sort((a, b) => b - a)
      .map((length) => {
        const i = sunk.indexOf(length);
        if (i >= 0) sunk.splice(i, 1);
        return h("li", { class: i >= 0 ? "sunk" : "", title: String(length) }, "\u25a0".repeat(length));
      }),
  );
}

function scoreboard(view) {
  const s = view.state;
  return h(
    "section",
    { class: "scoreboard", id: "scoreboard" },
    view.teams.map((team, i) =>
      h(
        "div",
        { class: `side${s.team === i ? " up" : ""}${view.you === i ? " us" : ""}${s.winner === i ? " winner" : ""}` },
        h("h2", {}, team.name, view.you === i ? h("span", { class: "tag" }, t("us")) : null),
        shipsLine(view, i),
        h("p", { class: "tally" }, t("tally", { darts: s.darts[i], hits: s.hits[i] })),
        s.phase === "placing" ? h("p", { class: "ready" }, s.placed[i] ? t("ready") : t("placing")) : null,
      ),
    ),
  );
}

// A team without named players (its one player bears its own name) is named once: the view's
// `named` says so (kiosk/darts/players.py, the rule of every screen); a kiosk older than the
// field, by the same rule.
function named(view, team) {
  const t = view.teams[team];
  return t.named ?? !(t.players.length === 1 && t.players[0] === t.name);
}

function who(view, team, player) {
  const name = view.teams[team].name;
  return !player || !named(view, team) ? name : `${name} (${player})`;
}

function cellText(code) {
  return code === "MISS" ? t("off_board") : code;
}

function turnLine(view) {
  const s = view.state;
  // The kiosk cannot save: nothing is played until it can (the reason is the kiosk's words).
  if (view.paused) return h("p", { class: "turn paused", id: "turn" }, t("paused", { reason: view.paused }));
  let text;
  if (s.phase === "placing") text = t("waiting_for_fleets");
  else if (s.phase === "bull_off") text = t(view.bull_off?.undecided ? "bull_off_closer" : "bull_off");
  else if (s.phase === "over") text = t("winner", { team: view.teams[s.winner].name });
  else if (s.phase === "takeout") text = t("takeout", { who: who(view, s.team, s.player) });
  else text = t("turn", { who: who(view, s.team, s.player), dart: s.dart, of: view.rules.darts_per_visit });
  return h("p", { class: `turn phase-${s.phase}`, id: "turn" }, text);
}

function eventLine(view) {
  // The winner is said once, by the turn line above; here only what the last dart did.
  const darts = page.events.filter((e) => (e.event === "dart" && !e.padded) || e.event === "corrected");
  const last = darts[darts.length - 1];
  if (!last) return h("p", { class: "event", id: "event" }, "\u00a0");
  const cell = cellText(last.cell || last.to);
  const team = last.team != null ? view.teams[last.team].name : "";
  const result = t(`result_${last.result}`);
  // A dart off the board is said as such ("off the board"), not as a code beside "MISS".
  const text = last.ship
    ? t("event_sunk", { team, cell, n: last.ship })
    : (last.cell || last.to) === "MISS"
      ? t("event_off", { team })
      : t("event_dart", { team, cell, result });
  return h("p", { class: `event result-${last.result}`, id: "event" }, text);
}

function recentDarts(view) {
  if (!page.recent.length) return null;
  return h(
    "section",
    { class: "recent", id: "recent" },
    h("h3", {}, t("recent_darts")),
    h("ul", { class: "recent" }, page.recent.map((e) =>
      h("li", {}, h("span", {}, named(view, e.team) ? `${view.teams[e.team].name} · ${e.player}` : view.teams[e.team].name),
        h("span", { class: `r-${e.result}` }, e.cell === "MISS" ? t("off_board") : `${e.cell} ${t(`result_${e.result}`)}`)))),
  );
}

function boardBlock(paint) {
  page.board.paint(paint.states);
  page.board.mark(paint.marks);
  return h("div", { class: "board-wrap", id: "board" }, page.board.svg);
}

function tabs(options) {
  return h(
    "nav",
    { class: "tabs", role: "tablist" },
    options.map(([id, label]) =>
      h("button", { role: "tab", "aria-selected": page.tab === id ? "true" : "false", "data-tab": id, onclick: () => {
        page.tab = id;
        render();
      } }, label),
    ),
  );
}

function legend(items) {
  return h("ul", { class: "legend" }, items.map(([cls, key]) => h("li", {}, h("span", { class: `swatch ${cls}` }), t(key))));
}

function renderEditor(view) {
  const us = view.teams[view.you].name;
  const done = page.slots.every((s) => s.ship);
  return [
    h("h2", { class: "headline" }, t("place_title", { team: us })),
    h("p", { class: "hint" }, t("place_hint")),
    h(
      "div",
      { class: "chips", role: "group", "aria-label": t("ships") },
      page.slots.map((slot, i) =>
        h(
          "button",
          { class: `chip${i === page.selected ? " selected" : ""}${slot.ship ? " done" : ""}`, "data-length": String(slot.length), onclick: () => chooseSlot(i) },
          h("span", { class: "size" }, String(slot.length)),
          h("span", { class: "dots" }, "\u25a0".repeat(slot.length)),
          slot.ship ? " \u2713" : "",
        ),
      ),
    ),
    boardBlock(editorPaint()),
    messageLine(),
    h(
      "div",
      { class: "actions" },
      h("button", { id: "random", onclick: randomFleet }, t("random")),
      h("button", { id: "clear", onclick: clearFleet }, t("clear")),
      h("button", { id: "lock", class: "primary", disabled: !done, onclick: lockIn }, t("lock_in")),
    ),
    readiness(view),
  ];
}

function readiness(view) {
  return h(
    "p",
    { class: "readiness", id: "readiness" },
    view.teams.map((team, i) => `${team.name} ${view.state.placed[i] ? "\u2713" : "\u2026"}`).join("   "),
  );
}

function renderLocked(view) {
  const other = view.teams[1 - view.you].name;
  return [
    h("h2", { class: "headline ok", id: "locked" }, t("locked_title")),
    h("p", { class: "hint" }, t("waiting_for", { team: other })),
    boardBlock(fleetPaint(view, view.you)),
    messageLine(),
    h("div", { class: "actions" }, h("button", { id: "change", onclick: changeFleet }, t("change_fleet"))),
    readiness(view),
  ];
}

// ---- the bull-off and the visit, decided from the phones ------------------------------

function zoneText(dart) {
  if (!dart) return t("zone_none");
  const zone = t(`zone_${dart.zone}`);
  return dart.zone === "other" && dart.cell && dart.cell !== "MISS" ? t("bull_dart", { cell: dart.cell, zone }) : zone;
}

async function vote(team) {
  page.busy = true;
  const { status, body } = await request(`${API}/closer`, "POST", { team });
  page.busy = false;
  if (status !== 200) page.message = { ...errorText(status, body), kind: "error" };
  else {
    page.message = null;
    await receive(body.view, []);
    return;
  }
  render();
}

function bullOffBlock(view) {
  const b = view.bull_off;
  if (view.state.phase !== "bull_off" || !b) return null;
  const items = view.teams.map((team, i) => h("li", {}, h("b", {}, team.name), ": ", zoneText(b.darts[i])));
  const out = [h("ul", { class: "bull-darts" }, items)];
  if (b.undecided) {
    const votes = view.closer_votes || [null, null];
    out.push(h("p", { class: "ask" }, t("who_was_closer")));
    votes.forEach((v, i) => {
      if (v != null) out.push(h("p", { class: "hint vote" }, t("they_say", { team: view.teams[i].name, closer: view.teams[v].name })));
    });
    if (TOKEN) {
      const mine = votes[view.you];
      const theirs = votes[1 - view.you];
      if (mine != null && theirs != null && mine !== theirs) out.push(h("p", { class: "message error" }, t("votes_differ")));
      else if (mine != null) out.push(h("p", { class: "hint" }, t("waiting_for_them", { team: view.teams[1 - view.you].name })));
      out.push(
        h(
          "div",
          { class: "actions" },
          view.teams.map((team, i) =>
            h("button", { class: `closer team${i}${mine === i ? " chosen" : ""}`, "data-closer": String(i), disabled: page.busy, onclick: () => vote(i) }, team.name),
          ),
        ),
      );
    }
  }
  return h("section", { class: "bull-off", id: "bull-off" }, out);
}

async function pressNext() {
  const s = page.view.state;
  if (s.phase === "throwing" && !page.armedNext) {
    // Early Next counts the darts not thrown as missed: a second tap says so on purpose.
    page.armedNext = true;
    render();
    return;
  }
  page.armedNext = false;
  page.busy = true;
  // For the visit this page shows: a Next that comes twice is refused, not the next visit ended.
  const { status, body } = await request(`${API}/next`, "POST", { visit: s.visit });
  page.busy = false;
  if (status !== 200) {
    page.message = { ...errorText(status, body), kind: "error" };
    render();
    return;
  }
  page.message = null;
  await receive(body.view, []);
}

function nextBlock(view) {
  const s = view.state;
  if (!TOKEN || s.turn !== view.you || !["throwing", "takeout"].includes(s.phase)) {
    page.armedNext = false;
    return null;
  }
  const takeout = s.phase === "takeout";
  const label = takeout ? t("next_darts_out") : page.armedNext ? t("next_confirm") : t("next_early");
  return h("div", { class: "actions next" }, h("button", { id: "next", class: takeout || page.armedNext ? "primary" : "", disabled: page.busy, onclick: pressNext }, label));
}

function renderTeamGame(view) {
  const us = view.you;
  const ourTurn = view.state.team === us;
  // Follow the game (our shots when we throw next, our fleet when they do) at every visit and
  // takeout; a tab the players picked stays until then.
  const moment = `${view.state.visit}:${view.state.phase}`;
  if (page.tabTurn !== moment || !page.tab) {
    page.tabTurn = moment;
    page.tab = ourTurn || view.state.phase === "over" ? "shots" : "fleet";
  }
  const paint = page.tab === "shots" ? shotsPaint(view, us) : fleetPaint(view, us);
  return [
    scoreboard(view),
    turnLine(view),
    eventLine(view),
    bullOffBlock(view),
    nextBlock(view),
    page.message && page.message.kind === "error" ? messageLine() : null,
    tabs([
      ["shots", t("tab_shots")],
      ["fleet", t("tab_fleet")],
    ]),
    boardBlock(paint),
    page.tab === "shots"
      ? legend([["hit", "legend_hit"], ["miss", "legend_miss"], ["sunk", "legend_sunk"]])
      : legend([["ship", "legend_ship"], ["hit", "legend_damage"], ["miss", "legend_enemy_miss"]]),
    recentDarts(view),
    page.message?.key === "started_with_locked_fleet" ? messageLine() : null,
  ];
}

function renderSpectator(view) {
  if (!page.tab || !["0", "1"].includes(page.tab)) page.tab = String(view.state.team ?? 0);
  const shooter = Number(page.tab);
  const out = [scoreboard(view), turnLine(view), eventLine(view), bullOffBlock(view)];
  if (view.state.phase === "placing") {
    out.push(readiness(view));
    out.push(h("p", { class: "hint" }, t("spectator_placing")));
  }
  out.push(tabs(view.teams.map((team, i) => [String(i), t("tab_team_shots", { team: team.name })])));
  out.push(boardBlock(shotsPaint(view, shooter)));
  out.push(legend([["hit", "legend_hit"], ["miss", "legend_miss"], ["sunk", "legend_sunk"]]));
  out.push(recentDarts(view));
  return out;
}

function render() {
  const main = document.getElementById("app");
  const view = page.view;
  let content;
  if (page.gone === "expired") {
    content = [h("h2", { class: "headline", id: "expired" }, t("link_expired")), h("p", { class: "hint" }, t("scan_again"))];
    socket.close();
  } else if (page.gone === "moved" || HELD_ELSEWHERE.includes(page.gone)) {
    // Nothing of the team: not its fleet, not even its name (the page may be a stranger's).
    page.view = null;
    page.slots = [];
    content = [
      h("h2", { class: "headline", id: "elsewhere" }, t(`gone_${page.gone}`)),
      h("p", { class: "hint" }, t(`gone_${page.gone}_hint`)),
      h("p", { class: "watch" }, h("a", { href: "/watch", class: "button" }, t("watch_game"))),
    ];
    socket.close();
  } else if (page.gone === "throttled") {
    content = [h("h2", { class: "headline" }, t("too_many_attempts"))];
  } else if (!view) {
    content = [h("p", { class: "notice" }, t(page.connected || !TOKEN ? "no_game" : "loading"))];
  } else if (!TOKEN) {
    content = renderSpectator(view);
  } else if (view.state.phase !== "placing") {
    content = renderTeamGame(view);
  } else if (page.editing) {
    content = renderEditor(view);
  } else {
    content = renderLocked(view);
  }
  // A page that is done with its link is not "offline": it has nothing to connect to.
  document.getElementById("connection").hidden = Boolean(page.gone);
  document.getElementById("title").textContent = view && TOKEN && !page.gone ? view.teams[view.you].name : t("title");
  document.body.dataset.mode = TOKEN ? (page.editing ? "placing" : "team") : "spectator";
  main.replaceChildren(...content.filter(Boolean));
  keepDraft();
}

// ---- start ------------------------------------------------------------------------------

async function start() {
  const language = pickLanguage(navigator.languages?.length ? navigator.languages : [navigator.language]);
  document.documentElement.lang = language;
  page.t = await loadCatalog(language);
  document.title = t("title");
  setConnected(false);
  const { status, body } = await request(API || "/api/game");
  const gone = goneFor(status, body);
  if (gone) {
    page.gone = gone;
    render();
    return;
  }
  if (status === 200) await receive(body.view, []);
  else render();
  socket.open();
}

window.dartship = { page, tap };
start();
