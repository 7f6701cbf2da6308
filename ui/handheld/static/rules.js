// The placement rules of RULES.md section 2, mirrored from kiosk/fleet.py for instant feedback.
// The server checks again on lock-in; tests/ui/test_handheld_rules_mirror.py proves both agree.

const BULL = "BULL";

export function makeRules(board) {
  const numbers = board.numbers;
  const numberIndex = new Map(numbers.map((n, i) => [n, i]));
  const circularRings = board.circular_rings;
  const spokeRings = board.spoke_rings;
  const edges = board.spoke_edges;
  const cellCodes = new Set(board.cells.map((c) => c.code));

  function parse(code) {
    if (code === BULL) return { ring: BULL, number: 0 };
    return { ring: code[0], number: Number(code.slice(1)) };
  }

  function spokeCell(ring, number) {
    return ring === BULL ? BULL : `${ring}${number}`;
  }

  // The induced spoke graph on a set of ring kinds is a simple path.
  function isSpokePath(kinds) {
    const degree = new Map([...kinds].map((k) => [k, 0]));
    let links = 0;
    for (const [a, b] of edges) {
      if (kinds.has(a) && kinds.has(b)) {
        degree.set(a, degree.get(a) + 1);
        degree.set(b, degree.get(b) + 1);
        links += 1;
      }
    }
    if ([...degree.values()].some((d) => d > 2)) return false;
    if (links !== kinds.size - 1) return false;
    // n-1 links, degrees at most 2: a path if connected.
    const start = [...kinds][0];
    const seen = new Set([start]);
    const todo = [start];
    while (todo.length) {
      const k = todo.pop();
      for (const [a, b] of edges) {
        const other = a === k ? b : b === k ? a : null;
        if (other && kinds.has(other) && !seen.has(other)) {
          seen.add(other);
          todo.push(other);
        }
      }
    }
    return seen.size === kinds.size;
  }

  // null when `codes` is a legal ship, else {key, params} naming the broken rule.
  function shipError(codes) {
    const ship = codes.join("-");
    if (codes.length < 2 || codes.length > 5) return { key: "err_ship_length", params: { ship, n: codes.length } };
    for (const code of codes) {
      if (!cellCodes.has(code)) return { key: "err_not_a_cell", params: { ship, cell: code } };
    }
    if (new Set(codes).size !== codes.length) return { key: "err_cell_twice", params: { ship } };
    const cells = codes.map(parse);
    const hasBull = cells.some((c) => c.ring === BULL);
    const rings = new Set(cells.map((c) => c.ring));
    const nums = new Set(cells.filter((c) => c.ring !== BULL).map((c) => c.number));
    if (rings.size === 1 && !hasBull) {
      const idx = new Set(cells.map((c) => numberIndex.get(c.number)));
      const starts = [...idx].filter((i) => !idx.has((i + 19) % 20));
      return starts.length === 1 ? null : { key: "err_gap_ring", params: { ship } };
    }
    if (nums.size === 1) {
      return isSpokePath(rings) ? null : { key: "err_gap_spoke", params: { ship } };
    }
    if (hasBull && rings.size === 2) return { key: "err_bull_circular", params: { ship } };
    return { key: "err_not_a_line", params: { ship } };
  }

  // Every legal position of a ship of `length` (as kiosk.fleet.ship_placements).
  const placementCache = new Map();
  function placements(length) {
    if (placementCache.has(length)) return placementCache.get(length);
    const found = [];
    for (const ring of circularRings) {
      for (let i = 0; i < 20; i++) {
        const ship = [];
        for (let k = 0; k < length; k++) ship.push(`${ring}${numbers[(i + k) % 20]}`);
        found.push(ship);
      }
    }
    const links = new Map(spokeRings.map((k) => [k, []]));
    for (const [a, b] of edges) {
      links.get(a).push(b);
      links.get(b).push(a);
    }
    const seen = new Set();
    const extend = (path) => {
      if (path.length === length) {
        const key = spokeRings.indexOf(path[0]) < spokeRings.indexOf(path[path.length - 1]) ? path : [...path].reverse();
        const id = key.join(",");
        if (!seen.has(id)) {
          seen.add(id);
          for (const n of numbers) found.push(key.map((k) => spokeCell(k, n)));
        }
        return;
      }
      for (const next of links.get(path[path.length - 1])) if (!path.includes(next)) extend([...path, next]);
    };
    for (const start of spokeRings) extend([start]);
    placementCache.set(length, found);
    return found;
  }

  // The positions of a `length` ship that hold every cell of `draft` and none of `blocked`.
  function fits(draft, length, blocked) {
    return placements(length).filter(
      (ship) => draft.every((c) => ship.includes(c)) && !ship.some((c) => blocked.has(c)),
    );
  }

  // The fleet's problems: null when it is exactly the wanted fleet with no overlap.
  function fleetError(ships, lengths) {
    for (const ship of ships) {
      const err = shipError(ship);
      if (err) return err;
    }
    const want = [...lengths].sort().join(",");
    const have = ships.map((s) => s.length).sort().join(",");
    if (want !== have) return { key: "err_wrong_fleet", params: { want, have: have || "-" } };
    const seen = new Map();
    for (const ship of ships) {
      for (const cell of ship) {
        if (seen.has(cell)) return { key: "err_overlap", params: { a: seen.get(cell), b: ship.join("-"), cell } };
        seen.set(cell, ship.join("-"));
      }
    }
    return null;
  }

  return { shipError, placements, fits, fleetError, cells: [...cellCodes] };
}
