// Boards on surfaces (Projective Hex, Euler Getter): the topology crate's layout drawn as
// SVG. A cell the rim cuts in two shows both halves; cells glued across the rim also
// appear as ghost copies beyond it. Hovering any piece of a cell lights all of them.
// Beside the disk, where the board allows, the same board in 3D (view3d.js).
import { el, moveTarget } from "./draw.js";

const SCALE = 30;
const pt = ([x, y]) => `${(x * SCALE).toFixed(1)},${(y * SCALE).toFixed(1)}`;
const points = (poly) => poly.map(pt).join(" ");

/**
 * Draws the board. `fill(cell)` is the CSS class of a cell's colour (or "empty");
 * `marked` a set of cells to outline (a winning loop, a region); `loop` cell indices
 * to join by a line, in order.
 */
export function drawSurface(box, state, ctx, { fill, marked = new Set(), loop = null }) {
  const layout = state.layout;
  const names = layout.names;
  const legal = new Set(state.legal_moves);
  const [minX, minY, maxX, maxY] = layout.bounds;
  const m = 0.6;
  const svg = el("svg", {
    viewBox: `${(minX - m) * SCALE} ${(minY - m) * SCALE} ${(maxX - minX + 2 * m) * SCALE} ${(maxY - minY + 2 * m) * SCALE}`,
    class: "surface",
  });
  const pieces = new Map(); // cell -> every SVG polygon showing it
  const add = (cell, node) => {
    if (!pieces.has(cell)) pieces.set(cell, []);
    pieces.get(cell).push(node);
    node.addEventListener("mouseenter", () => pieces.get(cell).forEach((p) => p.classList.add("twin-lit")));
    node.addEventListener("mouseleave", () => pieces.get(cell).forEach((p) => p.classList.remove("twin-lit")));
    if (marked.has(cell)) node.classList.add("in-loop");
    const name = names[cell];
    if (legal.has(name)) moveTarget(node, name, ctx);
    if (ctx.last === name) node.classList.add("last");
    node.append(el("title", {}, name));
    return node;
  };
  if (layout.rim && layout.rim.length) {
    svg.append(el("polygon", { class: "rim", points: points(layout.rim) }));
  }
  layout.ghosts.forEach((g) => {
    svg.append(add(g.cell, el("polygon", { class: `cell ghost ${fill(g.cell)}`, points: points(g.polygon), "data-cell": g.cell })));
  });
  layout.cells.forEach((shape, cell) => {
    shape.pieces.forEach((poly, i) => {
      svg.append(add(cell, el("polygon", {
        class: `cell ${i > 0 ? "twin " : ""}${fill(cell)}`, points: points(poly), "data-cell": cell,
      })));
    });
  });
  layout.cells.forEach((shape, cell) => {
    const [x, y] = shape.center;
    svg.append(el("text", { x: x * SCALE, y: y * SCALE, class: `label ${fill(cell)}` }, names[cell]));
  });
  if (loop && loop.length > 1) {
    svg.append(el("polyline", { class: "win", points: loopPath(layout, loop) }));
  }
  box.append(svg);
  // The 3D view needs three.js (2 MB): loaded after the disk is drawn, not before.
  import("./view3d.js").then(({ view3d }) => svg.isConnected && view3d(svg, state, ctx, { fill, marked, loop }));
  return svg;
}

// Joins the loop's cells, each step to the copy of the next cell nearest to the current
// one, so that a step across the rim ends at a ghost or twin beyond it.
function loopPath(layout, loop) {
  const copies = (cell) => [
    layout.cells[cell].center,
    ...layout.ghosts.filter((g) => g.cell === cell).map((g) => g.center),
    ...layout.cells[cell].pieces.slice(1).map(centroid),
  ];
  const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]);
  const parts = [];
  for (let i = 0; i + 1 < loop.length + 1; i++) {
    const a = loop[i];
    const b = loop[(i + 1) % loop.length];
    const from = layout.cells[a].center;
    const to = copies(b).reduce((best, c) => (dist(c, from) < dist(best, from) ? c : best));
    parts.push(from, to);
  }
  return parts.map(pt).join(" ");
}

function centroid(poly) {
  const n = poly.length;
  return [poly.reduce((s, p) => s + p[0], 0) / n, poly.reduce((s, p) => s + p[1], 0) / n];
}
