// The dartboard as an SVG, drawn from the server's board description (kiosk/geometry.py).
//
// Angles are the real ones. Radii are the real millimetres stretched piecewise so that the thin
// double and triple rings become fingertip-sized on a phone; the order and the wedges stay true.

const SVG = "http://www.w3.org/2000/svg";
const DISPLAY = { bull: 22, triple_inner: 80, triple_outer: 112, double_inner: 150, double_outer: 180 };
const LABEL_RADIUS = 193;

function radiusMap(mm) {
  const stops = [
    [0, 0],
    [mm.bull, DISPLAY.bull],
    [mm.triple_inner, DISPLAY.triple_inner],
    [mm.triple_outer, DISPLAY.triple_outer],
    [mm.double_inner, DISPLAY.double_inner],
    [mm.double_outer, DISPLAY.double_outer],
  ];
  return (r) => {
    for (let i = 1; i < stops.length; i++) {
      const [r0, d0] = stops[i - 1];
      const [r1, d1] = stops[i];
      if (r <= r1 + 1e-9) return d0 + ((r - r0) * (d1 - d0)) / (r1 - r0);
    }
    return stops[stops.length - 1][1];
  };
}

function point(r, deg) {
  const a = (deg * Math.PI) / 180;
  return [r * Math.sin(a), -r * Math.cos(a)];
}

function sectorPath(r0, r1, a0, a1) {
  if (a1 - a0 >= 360) {
    return `M ${-r1} 0 A ${r1} ${r1} 0 1 1 ${r1} 0 A ${r1} ${r1} 0 1 1 ${-r1} 0 Z`;
  }
  const f = (n) => n.toFixed(2);
  const [x0, y0] = point(r1, a0);
  const [x1, y1] = point(r1, a1);
  const [x2, y2] = point(r0, a1);
  const [x3, y3] = point(r0, a0);
  return `M ${f(x0)} ${f(y0)} A ${r1} ${r1} 0 0 1 ${f(x1)} ${f(y1)} L ${f(x2)} ${f(y2)} A ${r0} ${r0} 0 0 0 ${f(x3)} ${f(y3)} Z`;
}

function el(name, attrs) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

export class BoardView {
  constructor(description, label) {
    this.description = description;
    this.paths = new Map(); // code -> [path elements]
    this.centres = new Map(); // code -> [x, y] where a marker goes
    this.markers = new Map();
    this.onTap = null;
    const toDisplay = radiusMap(description.radii_mm);
    const svg = el("svg", { viewBox: "-205 -205 410 410", class: "board", role: "img", "aria-label": label });
    svg.appendChild(el("circle", { cx: 0, cy: 0, r: 204, class: "rim" }));
    const cells = el("g", { class: "cells" });
    for (const cell of description.cells) {
      const parts = [];
      let best = null;
      cell.sectors.forEach(([r0, r1, a0, a1], i) => {
        const d0 = toDisplay(r0);
        const d1 = toDisplay(r1);
        const even = cell.number ? description.numbers.indexOf(cell.number) % 2 === 0 : true;
        const path = el("path", {
          d: sectorPath(d0, d1, a0, a1),
          class: `cell ring-${cell.ring} ${even ? "even" : "odd"}`,
          "data-code": cell.code,
          "data-part": String(i),
        });
        cells.appendChild(path);
        parts.push(path);
        const area = (d1 * d1 - d0 * d0) * (a1 - a0);
        if (!best || area > best.area) {
          best = { area, centre: a1 - a0 >= 360 ? [0, 0] : point((d0 + d1) / 2, (a0 + a1) / 2) };
        }
      });
      if (cell.ring === "BULL" && description.radii_mm.inner_bull) {
        // Both bulls are drawn (the bull-off tells them apart); for the game they are one cell.
        // The inner disc takes no taps of its own: a tap on the bull is told apart by its
        // distance from the centre (see the click handler).
        this.innerBull = toDisplay(description.radii_mm.inner_bull);
        const inner = el("path", {
          d: sectorPath(0, this.innerBull, 0, 360),
          class: "cell ring-BULL inner-bull",
          "data-code": cell.code,
          "data-part": "inner",
        });
        cells.appendChild(inner);
        parts.push(inner);
      }
      this.paths.set(cell.code, parts);
      this.centres.set(cell.code, best.centre);
    }
    svg.appendChild(cells);
    const labels = el("g", { class: "labels", "aria-hidden": "true" });
    description.numbers.forEach((n, i) => {
      const [x, y] = point(LABEL_RADIUS, i * 18);
      const text = el("text", { x: x.toFixed(1), y: y.toFixed(1), class: "number" });
      text.textContent = String(n);
      labels.appendChild(text);
    });
    svg.appendChild(labels);
    this.markerLayer = el("g", { class: "markers", "aria-hidden": "true" });
    svg.appendChild(this.markerLayer);
    svg.addEventListener("click", (event) => {
      const target = event.target.closest("[data-code]");
      const code = target?.getAttribute("data-code");
      // The second argument says which bull was tapped: "inner", or anything else for the outer.
      if (code && this.onTap) this.onTap(code, code === "BULL" ? this.bullPart(event) : null);
    });
    this.svg = svg;
  }

  // "inner" when a tap on the bull lies within the inner bull's radius, else "outer".
  bullPart(event) {
    const matrix = this.svg.getScreenCTM();
    if (!matrix || !this.innerBull) return "outer";
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    return Math.hypot(p.x, p.y) <= this.innerBull ? "inner" : "outer";
  }

  // states: code -> list of class names (e.g. ["ship", "hit"]); every other cell is plain.
  paint(states) {
    for (const [code, parts] of this.paths) {
      const wanted = states.get(code) || [];
      for (const path of parts) {
        const base = path.getAttribute("class").split(" ").filter((c) => !c.startsWith("s-") && c !== "flash");
        path.setAttribute("class", [...base, ...wanted.map((c) => `s-${c}`)].join(" "));
      }
    }
  }

  // marks: code -> "hit" | "miss" | "sunk": a dot in the middle of the cell.
  mark(marks) {
    this.markerLayer.replaceChildren();
    for (const [code, kind] of marks) {
      const [x, y] = this.centres.get(code) || [0, 0];
      const r = code === "BULL" ? 9 : 6;
      this.markerLayer.appendChild(el("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r, class: `marker m-${kind}` }));
    }
  }

  // A short red blink on a refused tap. The class goes when the blink ends: the SVG is moved
  // on every render, and a class left behind would blink again each time.
  flash(code) {
    for (const path of this.paths.get(code) || []) {
      path.classList.remove("flash");
      void path.getBoundingClientRect();
      path.classList.add("flash");
      path.addEventListener("animationend", () => path.classList.remove("flash"), { once: true });
    }
  }
}
