// The classic 10x10 grid (A-J across, 1-10 down) for the classic page: squares as buttons,
// ships and sunk ships drawn as outlines over them (CSS grid areas), marks in the squares.
// The grid draws only what it is given: the page decides what a player may see.

import { h } from "./dom.js";

export const COLUMNS = "ABCDEFGHIJ";
export const SIZE = 10;

export function parseCell(code) {
  const m = /^([A-J])(10|[1-9])$/.exec(String(code).toUpperCase());
  return m ? { col: COLUMNS.indexOf(m[1]), row: Number(m[2]) } : null;
}

export function cellCode(col, row) {
  return `${COLUMNS[col]}${row}`;
}

// "A1-A5" -> ["A1", "A2", "A3", "A4", "A5"] (either direction).
export function shipCells(code) {
  const [a, b] = String(code).split("-").map(parseCell);
  if (!a || !b) return [];
  const cells = [];
  for (let row = Math.min(a.row, b.row); row <= Math.max(a.row, b.row); row++) {
    for (let col = Math.min(a.col, b.col); col <= Math.max(a.col, b.col); col++) cells.push(cellCode(col, row));
  }
  return cells;
}


// An outline over a run of squares: its place in the CSS grid (the label row and column first).
function span(cells, cls) {
  const points = cells.map(parseCell).filter(Boolean);
  if (!points.length) return null;
  const cols = points.map((p) => p.col);
  const rows = points.map((p) => p.row);
  const style = `grid-column:${Math.min(...cols) + 2}/${Math.max(...cols) + 3};grid-row:${Math.min(...rows) + 1}/${Math.max(...rows) + 2}`;
  return h("div", { class: cls, style, "aria-hidden": "true" });
}

// options: {id, label, marks: Map(code -> "hit" | "miss" | "sunk"), ships: [[codes]],
//           sunk: [[codes]], selected, last, onTap(code), interactive, shipClass: (i) -> string}
export function renderGrid(options) {
  const marks = options.marks || new Map();
  const interactive = Boolean(options.interactive && options.onTap);
  const grid = h("div", { class: `grid${interactive ? " interactive" : ""}`, id: options.id, role: "grid", "aria-label": options.label });
  // Every square is placed explicitly: the outlines drawn over them must not push them along
  // (auto-placement skips the areas of explicitly placed items).
  const at = (col, row) => `grid-column:${col + 1};grid-row:${row + 1}`;
  grid.append(h("span", { class: "corner", style: at(0, 0) }));
  COLUMNS.split("").forEach((letter, col) => grid.append(h("span", { class: "label col", style: at(col + 1, 0) }, letter)));
  for (let row = 1; row <= SIZE; row++) {
    grid.append(h("span", { class: "label row", style: at(0, row) }, String(row)));
    for (let col = 0; col < SIZE; col++) {
      const code = cellCode(col, row);
      const mark = marks.get(code);
      const classes = ["sq", mark ? `m-${mark}` : "", options.selected === code ? "selected" : "", options.last === code ? "last" : ""];
      const attrs = { class: classes.filter(Boolean).join(" "), "data-cell": code, style: at(col + 1, row), "aria-label": mark ? `${code} ${mark}` : code };
      const square = interactive
        ? h("button", { ...attrs, type: "button", onclick: () => options.onTap(code) })
        : h("span", attrs);
      square.append(h("i", { "aria-hidden": "true" }));
      grid.append(square);
    }
  }
  (options.ships || []).forEach((cells, i) => {
    const outline = span(cells, `ship ${options.shipClass ? options.shipClass(i) : ""}`);
    if (outline) grid.append(outline);
  });
  for (const cells of options.sunk || []) {
    const outline = span(cells, "sunk-outline");
    if (outline) grid.append(outline);
  }
  return grid;
}
