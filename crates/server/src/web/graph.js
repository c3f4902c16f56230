// Graphs (Edge-Nim, sandpile) as SVG: vertices on a grid for grid:RxC specs, else on a
// circle; edges as lines (arrows when directed).
import { el, graphLayout, bounds, svgBox } from "./draw.js";

/** Returns { svg, pos } with vertex positions; `edgeLabel(e, point)` labels an edge. */
export function drawGraph(n, edges, { grid = null, directed = false, edgeLabel = null } = {}) {
  const pos = graphLayout(n, { rows: grid ? grid.rows : 0, cols: grid ? grid.columns : 0, radius: Math.max(90, n * 16) });
  const svg = svgBox(bounds(pos), 40);
  if (directed) {
    svg.append(el("defs", {}, el("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 24, refY: 5, markerWidth: 8, markerHeight: 8, orient: "auto-start-reverse" },
      el("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "#555" }))));
  }
  edges.forEach(([u, v], e) => {
    const [x1, y1] = pos[u];
    const [x2, y2] = pos[v];
    svg.append(el("line", { x1, y1, x2, y2, class: "edge", "marker-end": directed ? "url(#arrow)" : null }));
    // Labels sit 40% along each edge, so that crossing diagonals keep theirs apart.
    if (edgeLabel) svg.append(edgeLabel(e, [x1 + 0.4 * (x2 - x1), y1 + 0.4 * (y2 - y1)]));
  });
  return { svg, pos };
}
