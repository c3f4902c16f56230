// The sandpile toppling game: the graph or grid, each vertex with its owner, score and
// threshold; the last move's cascade is replayed step by step.
import { el } from "../draw.js";
import { drawGraph } from "../graph.js";

export function render(box, state, ctx) {
  const view = state.view;
  const { svg, pos } = drawGraph(view.vertices.length, view.edges, { grid: view.grid, directed: view.directed });
  const legal = new Set(state.legal_moves);
  const nodes = new Map();
  view.vertices.forEach((v, i) => {
    const [cx, cy] = pos[i];
    const node = el("circle", { cx, cy, r: 20, class: `vertex ${v.owner || ""}${ctx.hint === v.name ? " hint" : ""}` },
      el("title", {}, `vertex ${v.name}: score ${v.score} of ${v.threshold}`));
    if (ctx.canMove && legal.has(v.name)) {
      node.setAttribute("data-move", v.name);
      node.addEventListener("click", () => ctx.play(v.name));
    }
    nodes.set(v.name, node);
    svg.append(node, el("text", { x: cx, y: cy, class: `vlabel ${v.owner || ""}` }, `${v.score}/${v.threshold}`));
  });
  const placed = view.vertices.filter((v) => v.owner);
  box.append(svg, el("p", { class: "note" },
    `Vertices: X ${placed.filter((v) => v.owner === "X").length}, O ${placed.filter((v) => v.owner === "O").length}, free ${view.vertices.length - placed.length}. `,
    `Grains placed: ${view.placements} (the game stops at ${view.move_limit}).`));
  const last = view.last_move;
  if (last && last.reached.length) {
    box.append(el("p", { class: "note" }, `Last grain on ${last.vertex}: the cascade reached ${last.reached.join(", ")}${last.erupted ? " and erupted (it never stops)" : ""}.`));
    // Replay the cascade: light the reached vertices one after the other.
    last.reached.forEach((name, step) => {
      setTimeout(() => nodes.get(name)?.classList.add("reached"), 180 * (step + 1));
      setTimeout(() => nodes.get(name)?.classList.remove("reached"), 180 * (step + 1) + 900);
    });
  }
}
