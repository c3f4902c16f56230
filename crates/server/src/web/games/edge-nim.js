// Edge-Nim: the graph with the tokens on each edge. Pick a vertex, then how many tokens
// to leave on each of its edges.
import { el } from "../draw.js";
import { drawGraph } from "../graph.js";

export function render(box, state, ctx) {
  const view = state.view;
  const index = new Map(view.vertices.map((v, i) => [v, i]));
  const edges = view.edges.map((e) => e.ends.map((v) => index.get(v)));
  const { svg, pos } = drawGraph(view.vertices.length, edges, {
    edgeLabel: (e, [x, y]) => el("g", {},
      el("circle", { cx: x, cy: y, r: 13, class: "tokens" }),
      el("text", { x, y }, String(view.edges[e].tokens)),
      el("text", { x: x + 20, y: y - 14, class: "note" }, view.edges[e].name)),
  });
  const panel = el("div", { class: "take", id: "take" }, ctx.canMove ? "Pick a vertex." : "");
  const hintVertex = ctx.hint ? ctx.hint.split(":")[0] : null;
  const nodes = view.vertices.map((name, v) => {
    const [cx, cy] = pos[v];
    const node = el("circle", { cx, cy, r: 16, class: `vertex${ctx.canMove ? " pickable" : ""}${hintVertex === name ? " hint" : ""}`, "data-vertex": name });
    svg.append(node, el("text", { x: cx, y: cy, class: "vlabel" }, name));
    if (ctx.canMove) node.addEventListener("click", () => pick(v));
    return node;
  });
  function pick(v) {
    nodes.forEach((n, i) => n.classList.toggle("selected", i === v));
    const name = view.vertices[v];
    const mine = view.edges.filter((e) => e.ends.includes(name) && e.tokens > 0);
    panel.replaceChildren(el("strong", {}, `Vertex ${name}: tokens to leave on each edge`), el("br"));
    if (!mine.length) { panel.append("No edge at this vertex has tokens."); return; }
    const inputs = mine.map((e) => {
      const input = el("input", { type: "number", min: 0, max: e.tokens, value: e.tokens, name: e.name });
      panel.append(el("label", {}, `${e.name} (${e.tokens}): `, input));
      return [e, input];
    });
    const take = el("button", { class: "primary" }, "Take");
    take.addEventListener("click", () => {
      const changes = inputs.filter(([e, i]) => Number(i.value) < e.tokens).map(([e, i]) => `${e.name}=${Number(i.value)}`);
      ctx.play(`${name}:${changes.join(",")}`);
    });
    panel.append(take);
  }
  box.append(svg, panel);
  if (ctx.hint) box.append(el("p", { class: "note" }, `Hint: at vertex ${hintVertex}, leave ${ctx.hint.split(":")[1]}.`));
}
