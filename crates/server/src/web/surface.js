// Boards on surfaces (Projective Hex, Euler Getter): the topology crate's layout drawn as
// SVG. A cell the rim cuts in two shows both halves; cells glued across the rim also
// appear as ghost copies beyond it; every copy carries the cell's name. Hovering any piece
// of a cell lights all of them. A board pasted without vertex positions (each face laid
// out on its own) is drawn as the graph of its faces instead. Beside the disk, where the
// board allows, the same board in 3D (view3d.js).
import { el, loadedLater, markMove, moveTarget, panZoom, playsMoves, roomFor3d, without3d } from "./draw.js";
import { drawGraph } from "./graph.js";
import { choicesOf, pastedFaces, surfacesOf, within } from "./shapes3d.js";
import { t } from "./i18n.js";

const SCALE = 30;
const pt = ([x, y]) => `${(x * SCALE).toFixed(1)},${(y * SCALE).toFixed(1)}`;
const points = (poly) => poly.map(pt).join(" ");
const key = ([x, y]) => `${x.toFixed(3)},${y.toFixed(3)}`;
let clipIds = 0;
// The board last drawn: built once per layout and repainted on each move, so that a move
// redraws quickly and the zoom stays where the player put it.
let kept = null;

/**
 * Draws the board. `fill(cell)` is the CSS class of a cell's colour (or "empty");
 * `marked` a set of cells to outline (a winning loop); `loop` cell indices to join, in
 * order, through their centres; `outlines` areas to ring ({ cells, cls, label }); `loops`
 * more cycles of cells to draw that way ({ cells, cls }: a region's loops).
 */
export function drawSurface(box, state, ctx, { fill, marked = new Set(), loop = null, outlines = [], loops = [] }) {
  const layout = arranged(state.layout);
  const names = layout.names;
  const legal = new Set(state.legal_moves);
  const faces = pastedFaces(state.board);
  if (faces && floating(layout)) return drawFaceGraph(box, state, ctx, faces, fill);
  if (!kept || kept.layout !== layout) kept = build(layout);
  kept.ctx = ctx;
  const { svg, copies, nodes, labels, overlay, clip } = kept;
  // Only what changed is written: each write restyles the cell. A cell's class is compared
  // with the page's (a stone shown before the server answers is put there); its move and
  // hint ring and solve mark with what markMove was last given, since only markMove writes
  // them.
  nodes.forEach((list, cell) => {
    const name = names[cell];
    const move = legal.has(name) ? name : null;
    const look = `${fill(cell)}${marked.has(cell) ? " in-loop" : ""}${ctx.last === name ? " last" : ""}`;
    const mark = `${move} ${ctx.canMove} ${ctx.hint} ${!!ctx.solved && ctx.solved.has(move)}`;
    for (const [node, copy] of list) {
      const wanted = `cell ${copy.ghost ? "ghost " : copy.twin ? "twin " : ""}${look}`;
      if (node.getAttribute("class") !== wanted) {
        node.setAttribute("class", wanted);
        copy.mark = null;
      }
      if (copy.mark !== mark) {
        markMove(node, move, ctx, !copy.ghost && !copy.twin);
        copy.mark = mark;
      }
    }
  });
  labels.forEach((list, cell) => list.forEach((text) => {
    if (text.dataset.fill === fill(cell)) return;
    text.classList.replace(text.dataset.fill, fill(cell));
    text.dataset.fill = fill(cell);
  }));
  overlay.replaceChildren();
  const areas = outlines.map((area) => outline(area, copies, layout, clip));
  for (const [line] of areas) overlay.append(line);
  // The loop under the names, so that the cells it runs through stay readable.
  for (const { cells, cls } of loops) {
    if (cells.length > 1) overlay.append(loopPath(cells, copies, clip, `region-loop ${cls}`));
  }
  if (loop && loop.length > 1) overlay.append(loopPath(loop, copies, clip, "win"));
  // The areas' tags over the loops, which would otherwise strike them through.
  for (const [, tag] of areas) overlay.append(tag);
  if (ctx.last !== null && names.includes(ctx.last)) {
    // Above the name (an area's tag sits below it), so that all show.
    const [x, y] = copies[names.indexOf(ctx.last)][0].centre;
    kept.dot.replaceChildren(el("circle", { class: "last-dot", cx: x * SCALE, cy: y * SCALE - 10, r: 3.5 }));
  } else {
    kept.dot.replaceChildren();
  }
  // The drawing stays in the box across moves (play.js keeps what is marked data-kept);
  // another board's drawing kept there goes.
  for (const child of box.querySelectorAll(":scope > [data-kept]")) {
    if (!child.contains(kept.wrap)) child.remove();
  }
  if (!box.contains(kept.wrap)) box.append(kept.wrap);
  besideIn3d(kept.wrap, state, ctx, { fill, marked, loop, loops });
  return svg;
}

// The 3D view, loaded after the disk is drawn.
const beside3d = loadedLater(() => import("./view3d.js").then((module) => module.view3d));
// Past this many cell copies the 3D view would be slow and its labels a blur.
const MAX_COPIES_3D = 4000;
// The surfaces each board's layout can be shown on in 3D.
const surfacesByLayout = new WeakMap();

/**
 * Puts the board in 3D beside the disk `disk` (in the page) when it has a surface to show
 * that is not too large; `paint` as view3d.js's view3d takes it. A still picture (the
 * rules pages) shows the disk alone.
 */
function besideIn3d(disk, state, ctx, paint) {
  if (ctx.still) return;
  if (!surfacesByLayout.has(state.layout)) surfacesByLayout.set(state.layout, surfacesOf(state.layout, state.board));
  const surfaces = surfacesByLayout.get(state.layout);
  // A connected sum's boards, side by side on the disk and in a row in 3D, go one above
  // the other, each the full width.
  const arrange = state.layout.summands ? "wide" : null;
  if (!surfaces.length) {
    // A board file or a pasted board says how its cells are glued, not where they lie in
    // space: the named families (goldberg, taylor, torus, klein) have a 3D view, and a
    // pasted projective plane, cut open into a disk, and sums of the families (shapes3d.js).
    without3d(disk, t("This board has no 3D view: only goldberg, taylor, torus and klein boards, their connected sums and pasted projective planes have one."));
  } else if (surfaces[0].copies.length > MAX_COPIES_3D) {
    without3d(disk, t("This board has too many cells for the 3D view."));
  } else if (roomFor3d(disk, { flatTab: "Disk", help: t("Click a cell to play it."), arrange, choices: choicesOf(surfaces), about: surfaces[0].note ? t(surfaces[0].note) : "" })) {
    beside3d(disk, state, ctx, paint, surfaces);
  }
}

// The parts of a board that never change: cells, names, rim, zoom; hovering any copy of a
// cell lights them all; the board plays the moves its cells carry.
function build(layout) {
  const [minX, minY, maxX, maxY] = layout.bounds;
  const m = 0.6;
  const svg = el("svg", {
    viewBox: `${(minX - m) * SCALE} ${(minY - m) * SCALE} ${(maxX - minX + 2 * m) * SCALE} ${(maxY - minY + 2 * m) * SCALE}`,
    class: "surface",
  });
  const board = { layout, svg, copies: copiesOf(layout), nodes: new Map(), labels: new Map(), ctx: null };
  for (const rim of rimsOf(layout)) svg.append(el("polygon", { class: "rim", points: points(rim) }));
  const names = el("g", { class: "labels" });
  board.copies.forEach((list, cell) => {
    const nodes = list.map((copy) => {
      // The cell once to screen readers: its twin halves and ghosts are hidden from them.
      const node = el("polygon", { points: points(copy.poly), "data-cell": cell, "aria-hidden": copy.ghost || copy.twin ? "true" : null },
        el("title", {}, layout.names[cell]));
      node.addEventListener("mouseenter", () => nodes.forEach(([p]) => p.classList.add("twin-lit")));
      node.addEventListener("mouseleave", () => nodes.forEach(([p]) => p.classList.remove("twin-lit")));
      svg.append(node);
      return [node, copy];
    });
    board.nodes.set(cell, nodes);
    board.labels.set(cell, list.map((copy) => {
      const text = label(layout.names[cell], copy, "empty");
      text.dataset.fill = "empty";
      names.append(text);
      return text;
    }));
  });
  board.clip = rimClip(svg, layout);
  board.overlay = el("g", { class: "overlay" });
  board.dot = el("g");
  svg.append(board.overlay, names, board.dot, tubeMouths(layout));
  playsMoves(svg, () => board.ctx);
  board.wrap = el("div", { class: "zoomable", "data-kept": "" }, panZoom(svg), svg);
  return board;
}

// Every polygon showing each cell: its pieces (the first is the cell, the others halves
// the rim cut off) and its ghosts, each with its area centroid.
function copiesOf(layout) {
  const copies = layout.cells.map((shape) => shape.pieces.map((poly, i) => ({ poly, twin: i > 0, centre: centroid(poly) })));
  for (const g of layout.ghosts) copies[g.cell].push({ poly: g.polygon, ghost: true, centre: centroid(g.polygon) });
  return copies;
}

// The name inside a copy of a cell, sized to the copy so that small rim pieces keep a
// readable label and large cells do not shout.
function label(name, copy, fillClass) {
  const [x, y] = copy.centre;
  const size = Math.max(5, Math.min(13, Math.sqrt(Math.abs(area(copy.poly))) * SCALE * 0.38 / Math.max(1, name.length * 0.55)));
  return el("text", {
    x: (x * SCALE).toFixed(1), y: (y * SCALE).toFixed(1), "font-size": size.toFixed(1),
    class: `label ${fillClass}${copy.ghost ? " ghost" : ""}`,
  }, name);
}

function area(poly) {
  let a = 0;
  poly.forEach((p, i) => {
    const q = poly[(i + 1) % poly.length];
    a += p[0] * q[1] - q[0] * p[1];
  });
  return a / 2;
}

function centroid(poly) {
  const a = area(poly);
  if (Math.abs(a) < 1e-9) {
    const n = poly.length;
    return [poly.reduce((s, p) => s + p[0], 0) / n, poly.reduce((s, p) => s + p[1], 0) / n];
  }
  let cx = 0;
  let cy = 0;
  poly.forEach((p, i) => {
    const q = poly[(i + 1) % poly.length];
    const cross = p[0] * q[1] - q[0] * p[1];
    cx += (p[0] + q[0]) * cross;
    cy += (p[1] + q[1]) * cross;
  });
  return [cx / (6 * a), cy / (6 * a)];
}

// On a narrow screen (a phone) a connected sum's boards go one above the other instead of
// side by side, each as wide as the screen (the 3D view maps each board on its own and
// is not moved).
const NARROW = window.matchMedia("(max-width: 800px)");
const stacked = new WeakMap();
function arranged(layout) {
  if (!layout.summands || !NARROW.matches) return layout;
  if (!stacked.has(layout)) stacked.set(layout, stack(layout));
  return stacked.get(layout);
}

// The layout with each board of a sum moved below the one before it, its left side where
// the first board's is.
function stack(layout) {
  const gap = 1.5;
  const [left, first] = layout.summands[0].bounds;
  let top = first;
  const moves = layout.summands.map(({ bounds: [, y0, , y1] }, k) => {
    const move = [left - layout.summands[k].bounds[0], top - y0];
    top += y1 - y0 + gap;
    return move;
  });
  const boardOf = (point) => Math.max(0, layout.summands.findIndex(({ bounds }) => within(bounds, point)));
  const shift = (points, [dx, dy]) => points.map(([x, y]) => [x + dx, y + dy]);
  const moved = (poly) => shift(poly, moves[boardOf(centroid(poly))]);
  const summands = layout.summands.map((board, k) => {
    const [dx, dy] = moves[k];
    const [x0, y0, x1, y1] = board.bounds;
    return { ...board, offset: [board.offset[0] + dx, board.offset[1] + dy], bounds: [x0 + dx, y0 + dy, x1 + dx, y1 + dy] };
  });
  return {
    ...layout,
    bounds: [left, first, Math.max(...summands.map((b) => b.bounds[2])), top - gap],
    cells: layout.cells.map(({ pieces, center }) => ({ pieces: pieces.map(moved), center: shift([center], moves[boardOf(center)])[0] })),
    ghosts: layout.ghosts.map((ghost) => ({ ...ghost, polygon: moved(ghost.polygon), center: shift([ghost.center], moves[boardOf(ghost.center)])[0] })),
    summands,
    tubes: layout.tubes.map((tube) => ({ ...tube, at: tube.at.map((p, end) => shift([p], moves[tube.summands[end]])[0]) })),
  };
}

// The rims of the drawing: the layout's, or each board's of a connected sum, moved to where
// that board is drawn.
function rimsOf(layout) {
  if (layout.summands) {
    return layout.summands
      .filter((board) => board.rim.length)
      .map(({ rim, offset: [dx, dy] }) => rim.map(([x, y]) => [x + dx, y + dy]));
  }
  return layout.rim && layout.rim.length ? [layout.rim] : [];
}

// Lines beyond the rim are clipped to it: a loop or an outline leaves the disk where the
// surface is glued, and comes back on the other side.
function rimClip(svg, layout) {
  const rims = rimsOf(layout);
  if (!rims.length) return null;
  clipIds += 1;
  const id = `rim-clip-${clipIds}`;
  svg.append(el("defs", {}, el("clipPath", { id }, ...rims.map((rim) => el("polygon", { points: points(rim) })))));
  return `url(#${id})`;
}

// Where each tube of a connected sum leaves each of its two boards: a ring at the vertex
// its three cells surround there, numbered with the board at the tube's other end.
function tubeMouths(layout) {
  const group = el("g", { class: "tube-mouths" });
  for (const tube of layout.tubes || []) {
    tube.summands.forEach((board, end) => {
      const other = tube.summands[1 - end] + 1;
      const [x, y] = [tube.at[end][0] * SCALE, tube.at[end][1] * SCALE];
      group.append(el("g", { class: "tube-mouth", "data-board": board + 1, "data-to": other },
        el("title", {}, t("The tube to board {board}", { board: other })),
        el("circle", { cx: x, cy: y, r: 8 }),
        el("text", { x, y }, String(other))));
    });
  }
  return group;
}

function edgesOf(poly) {
  return poly.map((p, i) => [p, poly[(i + 1) % poly.length]]);
}
const edgeKey = ([p, q]) => [key(p), key(q)].sort().join(" ");

// A loop of cells (the winning loop, a region's loop) through cell centres: each step
// joins the two cells through the middle of the side they share, or the corner they share
// when they meet at a corner only, for every pair of their copies that meet (so the line
// leaves through the rim and comes back where the surface is glued); cells drawn apart
// are joined straight between their nearest copies. `cls` is the group's class.
function loopPath(loop, copies, clip, cls) {
  const group = el("g", { class: cls, "clip-path": clip, "data-cells": loop.join(" ") });
  loop.forEach((a, i) => {
    const b = loop[(i + 1) % loop.length];
    if (loop.length === 2 && i === 1) return;
    let joined = false;
    for (const ca of copies[a]) {
      const sides = new Map(edgesOf(ca.poly).map((e) => [edgeKey(e), e]));
      const corners = new Set(ca.poly.map(key));
      for (const cb of copies[b]) {
        const shared = edgesOf(cb.poly).find((e) => sides.has(edgeKey(e)));
        const corner = shared ? null : cb.poly.find((p) => corners.has(key(p)));
        if (!shared && !corner) continue;
        const mid = shared ? [(shared[0][0] + shared[1][0]) / 2, (shared[0][1] + shared[1][1]) / 2] : corner;
        group.append(step(i, [ca.centre, mid, cb.centre]));
        joined = true;
      }
    }
    if (!joined) {
      const dist = (p, q) => Math.hypot(p.centre[0] - q.centre[0], p.centre[1] - q.centre[1]);
      let best = null;
      for (const ca of copies[a]) for (const cb of copies[b]) if (!best || dist(ca, cb) < dist(...best)) best = [ca, cb];
      group.append(step(i, best.map((c) => c.centre)));
    }
  });
  return group;
}

// Step `i` of a loop through `points`: its length counts as 1 and its place in the loop is
// `--step` (set through the CSSOM: the page's policy refuses style attributes), so that the
// stylesheet can draw a winning loop in, step after step.
function step(i, points) {
  const line = el("polyline", { points: points.map(pt).join(" "), pathLength: 1 });
  line.style.setProperty("--step", i);
  return line;
}

// The boundary of an area: the sides of its cells' copies that no other copy in the area
// shares and that do not lie on the rim (the area goes on across it), and apart from it
// its label, drawn later.
function outline({ cells, cls, label: text }, copies, layout, clip) {
  const count = new Map();
  const sides = [];
  for (const cell of cells) {
    for (const copy of copies[cell]) {
      for (const e of edgesOf(copy.poly)) {
        const k = edgeKey(e);
        count.set(k, (count.get(k) || 0) + 1);
        sides.push([k, e]);
      }
    }
  }
  const rims = rimsOf(layout);
  const rim = new Set(rims.flatMap((r) => edgesOf(r).map(edgeKey)));
  const tests = rims.map(rimTest);
  const onRim = (side) => tests.some((test) => test(side));
  const d = sides
    .filter(([k, e]) => count.get(k) === 1 && !rim.has(k) && !onRim(e))
    .map(([, [p, q]]) => `M${pt(p)}L${pt(q)}`).join("");
  // The label sits in the cell nearest the middle of the area's cells.
  const centres = cells.map((c) => copies[c][0].centre);
  const mean = [centres.reduce((s, c) => s + c[0], 0) / centres.length, centres.reduce((s, c) => s + c[1], 0) / centres.length];
  const at = centres.reduce((best, c) => (Math.hypot(c[0] - mean[0], c[1] - mean[1]) < Math.hypot(best[0] - mean[0], best[1] - mean[1]) ? c : best));
  // On a tag below the cell's name, so that both read.
  const [x, y] = [at[0] * SCALE, at[1] * SCALE + 13];
  const width = labelWidth(text) + 6;
  return [el("g", { class: `area ${cls}` }, el("path", { d, "clip-path": clip })),
    el("g", { class: `area ${cls}` },
      el("rect", { x: x - width / 2, y: y - 6.5, width, height: 13, rx: 4, class: "area-tag" }),
      el("text", { x, y, class: "area-label" }, text))];
}

// An area label's width in its own font (bold, 10px), so that its tag holds it in any
// language: Japanese characters are about twice as wide as the letters a count of
// characters allowed for.
const measure = document.createElement("canvas").getContext("2d");
function labelWidth(text) {
  measure.font = `700 10px ${getComputedStyle(document.body).fontFamily}`;
  return measure.measureText(text).width;
}

// Whether a side lies along the rim (a rim-cut piece's arc), within a small tolerance.
function rimTest(rim) {
  const rimSides = edgesOf(rim);
  const near = (p) => rimSides.some(([a, b]) => {
    const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
    const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy || 1)));
    return Math.hypot(a[0] + t * dx - p[0], a[1] + t * dy - p[1]) < 0.02;
  });
  return ([p, q]) => near([(p[0] + q[0]) / 2, (p[1] + q[1]) / 2]) && near(p) && near(q);
}

// Whether no two cells share a corner: each face laid out on its own (no positions given).
function floating(layout) {
  if ((layout.rim && layout.rim.length) || layout.ghosts.length) return false;
  const owner = new Map();
  return layout.cells.every((shape, cell) => shape.pieces.flat().every((p) => {
    const k = key(p);
    if (owner.has(k) && owner.get(k) !== cell) return false;
    owner.set(k, cell);
    return true;
  }));
}

// The graph of the faces: one disc per cell, a line per side two faces share.
function drawFaceGraph(box, state, ctx, faces, fill) {
  const names = state.layout.names;
  const legal = new Set(state.legal_moves);
  const sideOwners = new Map();
  faces.forEach((face, f) => face.forEach((v, i) => {
    const k = [v, face[(i + 1) % face.length]].sort((a, b) => a - b).join("-");
    if (!sideOwners.has(k)) sideOwners.set(k, []);
    sideOwners.get(k).push(f);
  }));
  const edges = [...sideOwners.values()].filter((fs) => fs.length === 2).map(([a, b]) => [a, b]);
  const { svg, board: wrap, pos } = drawGraph(faces.length, edges);
  svg.classList.add("surface");
  names.forEach((name, cell) => {
    const [cx, cy] = pos[cell];
    const node = el("circle", { cx, cy, r: 20, class: `cell ${fill(cell)}`, "data-cell": cell }, el("title", {}, name));
    moveTarget(node, legal.has(name) ? name : null, ctx);
    if (ctx.last === name) node.classList.add("last");
    svg.append(node, el("text", { x: cx, y: cy, class: `label ${fill(cell)}` }, name));
  });
  // Drawn anew on every move: nothing of an earlier drawing is kept.
  for (const child of box.querySelectorAll(":scope > [data-kept]")) child.remove();
  box.append(el("p", { class: "note" }, t("This board has no vertex positions: each face is a disc, joined to the faces it shares a side with.")), wrap);
  // A pasted projective plane has a 3D view all the same (cut open into a disk).
  besideIn3d(wrap, state, ctx, { fill });
  return svg;
}
