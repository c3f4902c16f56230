// Small DOM and SVG helpers shared by the page and the board drawings.
const SVG = "http://www.w3.org/2000/svg";
const SVG_TAGS = new Set(["svg", "g", "circle", "rect", "line", "path", "polygon", "polyline", "text", "title", "ellipse", "defs", "marker"]);

/** An element: HTML, or SVG for SVG tag names. Attributes with null values are skipped. */
export function el(tag, attrs = {}, ...children) {
  const node = SVG_TAGS.has(tag) ? document.createElementNS(SVG, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === "") continue;
    node.append(c instanceof Node ? c : String(c));
  }
  return node;
}

export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
}

/** An SVG element with a viewBox fitting [minX, minY, maxX, maxY] plus a margin. */
export function svgBox([minX, minY, maxX, maxY], margin = 10) {
  const w = maxX - minX + 2 * margin;
  const h = maxY - minY + 2 * margin;
  return el("svg", { viewBox: `${minX - margin} ${minY - margin} ${w} ${h}`, width: w, height: h });
}

/** Makes a node clickable for a move when the player may move. */
export function moveTarget(node, move, ctx) {
  if (!ctx.canMove || move === null || move === undefined) return node;
  node.setAttribute("data-move", move);
  node.addEventListener("click", () => ctx.play(move));
  if (ctx.hint === move) node.classList.add("hint");
  return node;
}

/** Positions for a graph's vertices: a grid when `rows` x `cols` is given, else a circle. */
export function graphLayout(n, { rows = 0, cols = 0, radius = 160 } = {}) {
  if (rows > 0 && cols > 0 && rows * cols === n) {
    return Array.from({ length: n }, (_, v) => [(v % cols) * 60, Math.floor(v / cols) * 60]);
  }
  if (n === 1) return [[0, 0]];
  return Array.from({ length: n }, (_, v) => {
    const a = -Math.PI / 2 + (2 * Math.PI * v) / n;
    return [radius * Math.cos(a), radius * Math.sin(a)];
  });
}

/** The bounding box of points. */
export function bounds(points) {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}
