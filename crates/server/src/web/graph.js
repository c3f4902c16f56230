// Graphs (Edge-Nim, sandpile) as SVG. Grid specs keep their grid. Other graphs are laid
// out without overlaps: a graph with a cycle by Tutte's barycentric method (an outer cycle
// pinned on a circle, every other vertex at the mean of its neighbours, so a planar graph
// is drawn without crossings: the tetrahedron as a triangle round its centre, Petersen as
// the pentagon and star), a tree radially from its centre; vertices left too close are
// then pushed apart. Everything is seeded: the same graph is drawn the same way each time.
// Beside the drawing, the same graph in 3D (graph3d.js).
import { el, bounds, loadedLater, panZoom, roomFor3d, seeded, svgBox, without3d } from "./draw.js";
import { t } from "./i18n.js";

const SPACING = 70;
// Above this many vertices the layout's quadratic steps would be slow: a plain circle.
const MAX_LAID_OUT = 300;

/** Positions for the vertices of a graph with `n` vertices and `edges` ([u, v] pairs). */
export function layoutGraph(n, edges, grid = null) {
  if (grid && grid.rows * grid.columns === n) {
    return Array.from({ length: n }, (_, v) => [(v % grid.columns) * SPACING, Math.floor(v / grid.columns) * SPACING]);
  }
  if (n === 0) return [];
  if (n > MAX_LAID_OUT) {
    const pos = new Array(n);
    circle([...Array(n).keys()], n * 16, [0, 0], pos);
    return pos;
  }
  const adj = Array.from({ length: n }, () => new Set());
  for (const [u, v] of edges) {
    if (u !== v) { adj[u].add(v); adj[v].add(u); }
  }
  const pos = new Array(n);
  let offset = 0;
  for (const part of components(adj)) {
    const placed = layoutComponent(part, adj, pos);
    // Components side by side, left to right.
    const [minX, minY, maxX] = bounds(placed.map((v) => pos[v]));
    for (const v of placed) pos[v] = [pos[v][0] - minX + offset, pos[v][1] - minY];
    offset += maxX - minX + SPACING;
  }
  return pos;
}

function components(adj) {
  const seen = new Array(adj.length).fill(false);
  const parts = [];
  for (let s = 0; s < adj.length; s++) {
    if (seen[s]) continue;
    seen[s] = true;
    const part = [s];
    for (let i = 0; i < part.length; i++) {
      for (const w of adj[part[i]]) if (!seen[w]) { seen[w] = true; part.push(w); }
    }
    parts.push(part);
  }
  return parts;
}

// Puts the vertices of `cycle` on a circle, in order, into `pos`.
function circle(cycle, radius, [cx, cy], pos) {
  cycle.forEach((v, i) => {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / cycle.length;
    pos[v] = [cx + radius * Math.cos(a), cy + radius * Math.sin(a)];
  });
}

function layoutComponent(part, adj, pos) {
  if (part.length === 1) { pos[part[0]] = [0, 0]; return part; }
  const edgeCount = part.reduce((s, v) => s + adj[v].size, 0) / 2;
  if (edgeCount === part.length - 1) radialTree(part, adj, pos);
  else bestTutte(part, adj, pos);
  spreadOut(part, pos, seeded(part.length * 7919 + edgeCount));
  return part;
}

// A tree from its centre: each subtree gets a share of the angle in proportion to its
// leaves, one ring per depth (a path becomes a straight line, a star a star).
function radialTree(part, adj, pos) {
  const far = (from) => {
    const depth = new Map([[from, 0]]);
    const parent = new Map();
    const queue = [from];
    for (let i = 0; i < queue.length; i++) {
      for (const w of adj[queue[i]]) {
        if (!depth.has(w)) { depth.set(w, depth.get(queue[i]) + 1); parent.set(w, queue[i]); queue.push(w); }
      }
    }
    return { last: queue[queue.length - 1], parent, depth };
  };
  const end = far(far(part[0]).last);
  const path = [end.last];
  while (end.parent.has(path[path.length - 1])) path.push(end.parent.get(path[path.length - 1]));
  const root = path[Math.floor(path.length / 2)];
  const { parent } = far(root);
  const children = new Map(part.map((v) => [v, []]));
  for (const [child, p] of parent) children.get(p).push(child);
  const leaves = new Map();
  const count = (v) => {
    const kids = children.get(v);
    const n = kids.length ? kids.reduce((s, k) => s + count(k), 0) : 1;
    leaves.set(v, n);
    return n;
  };
  count(root);
  const place = (v, depth, from, to) => {
    const a = (from + to) / 2;
    pos[v] = [depth * SPACING * Math.cos(a), depth * SPACING * Math.sin(a)];
    let at = from;
    for (const k of children.get(v)) {
      const share = ((to - from) * leaves.get(k)) / leaves.get(v);
      place(k, depth + 1, at, at + share);
      at += share;
    }
  };
  place(root, 0, 0, 2 * Math.PI);
}

// Tutte drawings from a few candidate outer cycles (the shortest cycle through each
// edge, a long one, the rims of the graph's lesser-degree vertices (a wheel's rim, a
// grid's border) and on small graphs the longest cycle a short search finds), keeping
// the one with the fewest crossings, then vertices drawn on another's edge (two edges on
// one line), then the most even edge lengths.
function bestTutte(part, adj, pos) {
  // Each candidate costs a drawing and a count of crossings: fewer on large graphs.
  const large = part.length > 100;
  const rims = rimCycles(part, adj, large ? 1 : 3);
  const most = (large ? 4 : 24) - (large ? rims.length : 0);
  const candidates = new Map();
  for (const u of part) {
    for (const v of adj[u]) {
      if (u < v) {
        const cycle = shortestCycle(u, v, adj);
        if (cycle) candidates.set([...cycle].sort((a, b) => a - b).join(","), cycle);
      }
      if (candidates.size >= most) break;
    }
    if (candidates.size >= most) break;
  }
  const long = longCycle(part, adj);
  if (long) candidates.set("long", long);
  for (const cycle of rims) candidates.set([...cycle].sort((a, b) => a - b).join(","), cycle);
  // On small graphs also the longest cycle a short search finds (a 2×n grid's border).
  const longest = large ? null : longestCycle(part, adj, 4000);
  if (longest) candidates.set("longest", longest);
  let best = null;
  for (const cycle of candidates.values()) {
    const trial = tutte(part, adj, cycle);
    const [crossings, onEdges, uneven] = quality(part, adj, trial);
    if (!best || crossings < best.crossings || (crossings === best.crossings
      && (onEdges < best.onEdges || (onEdges === best.onEdges && uneven < best.uneven)))) {
      best = { crossings, onEdges, uneven, trial };
    }
  }
  // A graph drawn with crossings (not planar, like Petersen) crowds its middle: springs
  // along the edges and repulsion between all vertices even it out.
  if (best.crossings > 0) forces(part, adj, best.trial, seeded(part.length));
  for (const v of part) pos[v] = best.trial[v];
}

// Fruchterman–Reingold from the given positions, with a cooling step.
function forces(part, adj, pos, random) {
  const k = SPACING * 1.2;
  let step = SPACING;
  const rounds = part.length > 100 ? 80 : 300;
  for (let round = 0; round < rounds; round++) {
    const move = new Map(part.map((v) => [v, [0, 0]]));
    for (let i = 0; i < part.length; i++) {
      for (let j = i + 1; j < part.length; j++) {
        const [u, v] = [part[i], part[j]];
        let dx = pos[v][0] - pos[u][0];
        let dy = pos[v][1] - pos[u][1];
        let d = Math.hypot(dx, dy);
        if (d < 1e-6) { dx = random() - 0.5; dy = random() - 0.5; d = Math.hypot(dx, dy); }
        const f = (k * k) / d - (adj[u].has(v) ? (d * d) / k : 0);
        move.get(u)[0] -= (dx / d) * f; move.get(u)[1] -= (dy / d) * f;
        move.get(v)[0] += (dx / d) * f; move.get(v)[1] += (dy / d) * f;
      }
    }
    for (const v of part) {
      const [mx, my] = move.get(v);
      const len = Math.hypot(mx, my) || 1;
      const by = Math.min(len, step);
      pos[v] = [pos[v][0] + (mx / len) * by, pos[v][1] + (my / len) * by];
    }
    step = Math.max(1, step * 0.98);
  }
}

function shortestCycle(u, v, adj) {
  const parent = new Map([[u, null]]);
  const queue = [u];
  for (let i = 0; i < queue.length; i++) {
    const x = queue[i];
    for (const w of adj[x]) {
      if ((x === u && w === v) || parent.has(w)) continue;
      parent.set(w, x);
      if (w === v) {
        const cycle = [v];
        while (parent.get(cycle[cycle.length - 1]) !== null) cycle.push(parent.get(cycle[cycle.length - 1]));
        return cycle;
      }
      queue.push(w);
    }
  }
  return null;
}

// Long cycles among the vertices of least degree (those of degree at most each of the
// lowest few degrees in turn), each cut at its chords down to the longer side, so without
// chords: a wheel's rim (its hub has the greatest degree), a grid's border (its inner
// vertices have four neighbours). At most `most` of them, each new.
function rimCycles(part, adj, most) {
  const degrees = [...new Set(part.map((v) => adj[v].size))].sort((a, b) => a - b);
  const found = new Map();
  for (const degree of degrees.slice(0, most + 1)) {
    const low = part.filter((v) => adj[v].size <= degree);
    const inLow = new Set(low);
    const lowAdj = [];
    for (const v of low) lowAdj[v] = new Set([...adj[v]].filter((w) => inLow.has(w)));
    const withEdges = low.filter((v) => lowAdj[v].size > 1);
    if (withEdges.length < 3) continue;
    let cycle = longCycle(withEdges, lowAdj);
    if (!cycle) continue;
    // A chord splits the cycle in two: keep the longer side.
    for (let chorded = true; chorded;) {
      chorded = false;
      const at = new Map(cycle.map((v, i) => [v, i]));
      for (let i = 0; i < cycle.length && !chorded; i++) {
        for (const w of adj[cycle[i]]) {
          const j = at.get(w);
          if (j === undefined || j <= i + 1 || (i === 0 && j === cycle.length - 1)) continue;
          const inside = cycle.slice(i, j + 1);
          cycle = inside.length * 2 >= cycle.length + 2 ? inside : [...cycle.slice(j), ...cycle.slice(0, i + 1)];
          chorded = true;
          break;
        }
      }
    }
    const key = [...cycle].sort((a, b) => a - b).join(",");
    if (cycle.length >= 3 && !found.has(key)) found.set(key, cycle);
    if (found.size >= most) break;
  }
  return [...found.values()];
}

// The longest cycle through a vertex of least degree found within `budget` steps of a
// depth-first search (the neighbour with the fewest unvisited neighbours first), or null.
function longestCycle(part, adj, budget) {
  const start = part.reduce((a, b) => (adj[b].size < adj[a].size ? b : a));
  const path = [start];
  const onPath = new Set(path);
  let best = null;
  let steps = 0;
  const free = (w) => [...adj[w]].filter((x) => !onPath.has(x)).length;
  const walk = () => {
    if (steps++ >= budget || (best && best.length === part.length)) return;
    const end = path[path.length - 1];
    if (path.length >= 3 && adj[end].has(start) && (!best || path.length > best.length)) best = [...path];
    const next = [...adj[end]].filter((w) => !onPath.has(w)).map((w) => [w, free(w)]).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    for (const [w] of next) {
      path.push(w);
      onPath.add(w);
      walk();
      path.pop();
      onPath.delete(w);
    }
  };
  walk();
  return best;
}

// A long cycle by a depth-first walk that prefers the neighbour with the fewest
// unvisited neighbours, closed at the earliest visited neighbour of its end.
function longCycle(part, adj) {
  const start = part.reduce((a, b) => (adj[b].size < adj[a].size ? b : a));
  const path = [start];
  const onPath = new Set(path);
  for (;;) {
    const end = path[path.length - 1];
    const next = [...adj[end]].filter((w) => !onPath.has(w));
    if (!next.length) break;
    const free = (w) => [...adj[w]].filter((x) => !onPath.has(x)).length;
    const w = next.reduce((a, b) => (free(b) < free(a) ? b : a));
    path.push(w);
    onPath.add(w);
  }
  const end = path[path.length - 1];
  const back = path.findIndex((v, i) => i < path.length - 2 && adj[end].has(v));
  return back >= 0 ? path.slice(back) : null;
}

function tutte(part, adj, cycle) {
  const pos = [];
  circle(cycle, Math.max(SPACING, (cycle.length * SPACING) / (2 * Math.PI)) * 1.3, [0, 0], pos);
  const pinned = new Set(cycle);
  const free = part.filter((v) => !pinned.has(v));
  const jitter = seeded(free.length + 1);
  for (const v of free) pos[v] = [jitter() - 0.5, jitter() - 0.5];
  for (let round = 0; round < 400; round++) {
    for (const v of free) {
      let x = 0;
      let y = 0;
      for (const w of adj[v]) { x += pos[w][0]; y += pos[w][1]; }
      pos[v] = [x / adj[v].size, y / adj[v].size];
    }
  }
  return pos;
}

// The crossings (and vertices drawn on an edge not theirs, which lays two edges on one
// line), and how uneven the edge lengths are (0 to 1): fewer is better, then more even.
function quality(part, adj, pos) {
  const edges = [];
  for (const u of part) for (const v of adj[u]) if (u < v) edges.push([u, v]);
  let crossings = 0;
  let onEdges = 0;
  for (let i = 0; i < edges.length && edges.length <= 400; i++) {
    for (let j = i + 1; j < edges.length; j++) {
      if (crosses(pos, edges[i], edges[j])) crossings += 1;
    }
    const [a, b] = edges[i];
    for (const v of part) {
      if (v !== a && v !== b && segmentDistance(pos[v], pos[a], pos[b]) < 1) onEdges += 1;
    }
  }
  const lengths = edges.map(([u, v]) => Math.hypot(pos[u][0] - pos[v][0], pos[u][1] - pos[v][1]));
  return [crossings, onEdges, 1 - Math.min(...lengths) / Math.max(...lengths)];
}

function crosses(pos, [a, b], [c, d]) {
  if (a === c || a === d || b === c || b === d) return false;
  const side = (p, q, r) => Math.sign((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]));
  return side(pos[a], pos[b], pos[c]) * side(pos[a], pos[b], pos[d]) < 0
    && side(pos[c], pos[d], pos[a]) * side(pos[c], pos[d], pos[b]) < 0;
}

// Pushes apart vertices closer than most of the spacing (a pendant vertex sits on its
// neighbour in a Tutte drawing), nudging coincident ones in a seeded direction.
function spreadOut(part, pos, random) {
  const minimum = SPACING * 0.75;
  for (let round = 0; round < 60; round++) {
    let moved = false;
    for (let i = 0; i < part.length; i++) {
      for (let j = i + 1; j < part.length; j++) {
        const [p, q] = [pos[part[i]], pos[part[j]]];
        let dx = q[0] - p[0];
        let dy = q[1] - p[1];
        let d = Math.hypot(dx, dy);
        if (d >= minimum) continue;
        if (d < 1e-6) {
          const a = random() * 2 * Math.PI;
          [dx, dy, d] = [Math.cos(a), Math.sin(a), 1];
        }
        const push = (minimum - d) / 2 / d;
        pos[part[i]] = [p[0] - dx * push, p[1] - dy * push];
        pos[part[j]] = [q[0] + dx * push, q[1] + dy * push];
        moved = true;
      }
    }
    if (!moved) break;
  }
}

// The layout last computed (positions, edge curves and label points), reused while the
// graph stays the same (every move of a game).
let lastLayout = { key: null };

// Labels (and edge names) that crowd each other, the vertices or the lines even at their
// best spots (`labelPoints`, `placeNames`), and names left nearer another edge than their
// own, get room by drawing the graph larger, up to twice (the discs and text keep their
// size, so they take less of it); graphs of over 200 edges are left as laid out.
// Pixels between an edge's name and anything else drawn: a name touching a line reads as
// that line's.
const NAME_ROOM = 2;

function spreadForLabels(edges, laidOut, names) {
  for (let spread = 1; ; spread = Math.min(spread * 1.15, 2)) {
    const pos = laidOut.map(([x, y]) => [x * spread, y * spread]);
    const curves = edgeCurves(edges, pos);
    const { points, room } = labelPoints(curves, pos);
    const placed = placeNames(edges, names, pos, curves, points);
    if ((room >= 0 && placed.room >= NAME_ROOM && !placed.astray) || spread === 2 || edges.length > 200) {
      return { pos, curves, points, namePoints: placed.spots };
    }
  }
}

// Where each edge's name (11 px text, at most about 7 px a character in bold) goes beside
// the edge, clear of its own label: on the side a parallel edge bows to, else the side with
// more room (by the name's corners and middle) from the vertex discs, the other edges'
// lines and labels, and the names placed before it. A name nearer another edge than its
// own reads as that edge's: beside its label, or failing that just along the edge from
// it, or beside the edge anywhere along its middle (clear of its label), wherever it is
// nearer its own edge with room enough; else the side with more room. `room` is the least
// such clearance, `astray` how many names are still nearer another edge.
function placeNames(edges, names, pos, curves, points) {
  const placed = [];
  const clearance = ([x, y], skip) => Math.min(
    ...pos.map(([px, py]) => Math.hypot(x - px, y - py) - 18),
    ...edges.flatMap(([p, q], f) => (f === skip ? [] : [
      segmentDistance([x, y], pos[p], pos[q]),
      Math.hypot(x - points[f][0], y - points[f][1]) - 13,
    ])),
    ...placed.map(([nx, ny, half]) => Math.hypot(Math.max(Math.abs(x - nx) - half, 0), Math.max(Math.abs(y - ny) - 6, 0))),
  );
  let least = Infinity;
  let astray = 0;
  // How much nearer edge `e` than any other a point is (negative: nearer another).
  const ownership = (p, e) => Math.min(...edges.map(([a, b], f) => (f === e ? Infinity : segmentDistance(p, pos[a], pos[b]))))
    - segmentDistance(p, pos[edges[e][0]], pos[edges[e][1]]);
  const spots = curves.map(({ at: along, side, bowed }, e) => {
    const half = 3.5 * names[e].length;
    const at = ([dx, dy]) => {
      const away = 18 + Math.abs(dx) * half + Math.abs(dy) * 6;
      return [points[e][0] + dx * away, points[e][1] + dy * away];
    };
    const room = (p) => Math.min(...[[0, 0], [-half, -6], [half, -6], [-half, 6], [half, 6]]
      .map(([x, y]) => clearance([p[0] + x, p[1] + y], e)));
    const [here, there] = [at(side), at([-side[0], -side[1]])];
    const hereRoom = room(here);
    const thereRoom = bowed ? -Infinity : room(there);
    let [best, bestRoom] = hereRoom >= thereRoom ? [here, hereRoom] : [there, thereRoom];
    if (!bowed && ownership(best, e) <= 0) {
      // Just past the label along the edge, a little to either side; on a crowded
      // drawing, beside the edge anywhere along its middle, clear of its label.
      const [a, b] = [along(0.45), along(0.55)];
      const length = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
      const tangent = [(b[0] - a[0]) / length, (b[1] - a[1]) / length];
      const past = 13 + NAME_ROOM + Math.abs(tangent[0]) * half + Math.abs(tangent[1]) * 6;
      const beside = 6 + Math.abs(side[0]) * half + Math.abs(side[1]) * 6;
      const aside = (p, by) => [1, -1].map((way) => [p[0] + way * side[0] * by, p[1] + way * side[1] * by]);
      const clearOfLabel = (p) => Math.hypot(Math.max(Math.abs(p[0] - points[e][0]) - half, 0),
        Math.max(Math.abs(p[1] - points[e][1]) - 6, 0)) >= 13 + NAME_ROOM;
      const candidates = [there, here, ...[1, -1].flatMap((way) => aside([
        points[e][0] + way * tangent[0] * past, points[e][1] + way * tangent[1] * past], beside)),
      ...ALONG.flatMap((t) => aside(along(t), beside - 6 + NAME_ROOM + 1)).filter(clearOfLabel)];
      const owned = candidates.map((p) => [p, room(p)]).filter(([p, r]) => r >= NAME_ROOM && ownership(p, e) > 0);
      if (owned.length) [best, bestRoom] = owned.reduce((x, y) => (y[1] > x[1] ? y : x));
    }
    if (!bowed && ownership(best, e) <= 0) astray += 1;
    least = Math.min(least, bestRoom);
    placed.push([...best, half]);
    return best;
  });
  return { spots, room: least, astray };
}

// Where along an edge its name may go on a crowded drawing, from its middle outwards.
const ALONG = [0.5, 0.44, 0.56, 0.38, 0.62, 0.32, 0.68, 0.26, 0.74];

/**
 * Draws the edges; returns { svg, board, pos, edgeNodes }, `board` the drawing with its zoom
 * bar (what the page shows; the zoom is kept while the same graph is drawn again).
 * With `edgeNames` (a name per edge), `edgeLabel(e, point, namePoint)` labels an edge at
 * `point` on it, near its middle where there is room (`labelPoints`), and its name goes at
 * `namePoint` beside it (`placeNames`). Parallel edges bow apart so that each keeps its own
 * label.
 */
export function drawGraph(n, edges, { grid = null, directed = false, edgeNames = null, edgeLabel = null } = {}) {
  const key = JSON.stringify([n, edges, grid, edgeNames]);
  if (lastLayout.key !== key) {
    const pos = layoutGraph(n, edges, grid);
    lastLayout = { key, ...(edgeNames ? spreadForLabels(edges, pos, edgeNames) : { pos, curves: edgeCurves(edges, pos) }) };
  }
  const { pos, curves, points, namePoints } = lastLayout;
  const svg = svgBox(n ? bounds(pos) : [0, 0, 0, 0], 44);
  svg.classList.add("graph");
  if (directed) {
    svg.append(el("defs", {}, el("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 26, refY: 5, markerWidth: 8, markerHeight: 8, orient: "auto-start-reverse" },
      el("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "#555" }))));
  }
  const edgeNodes = curves.map(({ d }) => {
    const node = el("path", { d, class: "edge", "marker-end": directed ? "url(#arrow)" : null });
    svg.append(node);
    return node;
  });
  // The drawing with its zoom bar, opening as zoomed as the last drawing of this graph.
  const board = el("div", { class: "zoomable graph-zoom" }, panZoom(svg, key), svg);
  // Over every edge, so that no line crosses a label.
  if (edgeNames) svg.append(...curves.map((_, e) => edgeLabel(e, points[e], namePoints[e])));
  return { svg, board, pos, edgeNodes };
}

/**
 * Each edge's curve: its SVG path `d`, `at(t)` the point at parameter `t` along it, the unit
 * vector `side` across it (to the side it bows to), and whether it is `bowed` (parallel
 * edges and loops).
 */
function edgeCurves(edges, pos) {
  const seen = new Map();
  const parallel = new Map();
  const pairKey = (u, v) => (u < v ? `${u},${v}` : `${v},${u}`);
  for (const [u, v] of edges) parallel.set(pairKey(u, v), (parallel.get(pairKey(u, v)) || 0) + 1);
  return edges.map(([u, v]) => {
    const key = pairKey(u, v);
    const k = seen.get(key) || 0;
    seen.set(key, k + 1);
    const [a, b] = [pos[u], pos[v]];
    if (u === v) {
      const top = [a[0], a[1] - 38];
      return { d: `M ${a[0]} ${a[1]} c -30 -50 30 -50 0 0`, at: () => top, side: [0, -1], bowed: true };
    }
    const bow = (k - (parallel.get(key) - 1) / 2) * 26 * (u < v ? 1 : -1);
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
    const across = [-(b[1] - a[1]) / len, (b[0] - a[0]) / len];
    const c = [(a[0] + b[0]) / 2 + across[0] * bow * 2, (a[1] + b[1]) / 2 + across[1] * bow * 2];
    const at = (t) => [0, 1].map((i) => (1 - t) * (1 - t) * a[i] + 2 * t * (1 - t) * c[i] + t * t * b[i]);
    const side = bow < 0 ? [-across[0], -across[1]] : across;
    return { d: `M ${a[0]} ${a[1]} Q ${c[0]} ${c[1]} ${b[0]} ${b[1]}`, at, side, bowed: bow !== 0 };
  });
}

// Where along its edge each label (a disc of radius 13) goes: the middle where no other
// label or vertex is that near, else the spot from the middle to a quarter of the way
// towards either end with the most room, chosen again for each edge in turn for a few
// rounds (the inner edges of a drawing with crossings, like Petersen's star, would pile
// their labels up in the middle). Also answers the least room left (0 when none lacks it).
const LABEL_SPOTS = [0.5, 0.42, 0.58, 0.34, 0.66, 0.26, 0.74];
function labelPoints(curves, pos) {
  const points = curves.map(({ at }) => at(0.5));
  const room = (p, skip) => Math.min(
    ...pos.map(([x, y]) => Math.hypot(p[0] - x, p[1] - y) - 18 - 13),
    ...points.filter((_, f) => f !== skip).map(([x, y]) => Math.hypot(p[0] - x, p[1] - y) - 26 - 4),
  );
  for (let round = 0; round < 3; round++) {
    curves.forEach(({ at }, e) => {
      const middle = at(0.5);
      points[e] = room(middle, e) >= 0 ? middle : LABEL_SPOTS.map(at).reduce((a, b) => (room(b, e) > room(a, e) ? b : a));
    });
  }
  return { points, room: Math.min(0, ...points.map((p, e) => room(p, e))) };
}

/** The distance from point `p` to the segment from `a` to `b`. */
function segmentDistance([x, y], [ax, ay], [bx, by]) {
  const [dx, dy] = [bx - ax, by - ay];
  const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(x - ax - t * dx, y - ay - t * dy);
}

/** A vertex: its disc, the text inside and, when given, its name beside it. */
export function drawVertex(svg, [cx, cy], { cls, inner, name = null, r = 18, title = null }) {
  const disc = el("circle", { cx, cy, r, class: `vertex ${cls}` }, title ? el("title", {}, title) : null);
  svg.append(disc, el("text", { x: cx, y: cy, class: `vlabel ${cls}` }, inner));
  if (name !== null) svg.append(el("text", { x: cx + r + 2, y: cy - r, class: "vname" }, name));
  return disc;
}

// The 3D view, loaded after the flat drawing.
const beside3d = loadedLater(() => import("./graph3d.js").then((module) => module.graph3d));
// Past this many vertices the 3D layout's quadratic steps would be slow, and its labels a blur.
const MAX_VERTICES_3D = 300;

/**
 * Puts the graph in 3D beside its flat drawing `board` (in the page) where it is not too
 * large; a still picture (the rules pages, a board before its game starts) goes alone.
 * `graph` is as graph3d.js's graph3d takes it, and its `help` what the view shows and what
 * a click does.
 */
export function graphIn3d(board, graph, state, ctx) {
  if (ctx.still) return;
  if (graph.vertices.length > MAX_VERTICES_3D) without3d(board, t("This graph has too many vertices for the 3D view."));
  else if (roomFor3d(board, { flatTab: "Flat", help: graph.help })) beside3d(board, graph, state);
}
