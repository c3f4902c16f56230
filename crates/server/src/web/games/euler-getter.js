// Euler Getter: both scores live (V - E + F of each area); at the end each region's
// pieces and loops, lit on the board when hovered.
import { el } from "../draw.js";
import { drawSurface } from "../surface.js";

export function render(box, state, ctx) {
  const view = state.view;
  const index = new Map(state.layout.names.map((n, i) => [n, i]));
  const colourOf = (owner) => (owner ? view.colours[owner] : "empty");
  const scores = el("div", { class: "scores" });
  for (const p of ["X", "O"]) {
    const s = view.score[p];
    scores.append(el("span", {},
      el("span", { class: `swatch ${view.colours[p]}` }),
      ` ${p}: χ = ${s.chi} `, el("small", {}, `(V ${s.vertices} − E ${s.edges} + F ${s.faces})`)));
  }
  box.append(scores);
  const svg = drawSurface(box, state, ctx, { fill: (cell) => colourOf(view.owners[cell]) });
  const notes = [`Rule: ${view.rule} (the ${view.rule === "reverse" ? "smaller" : "larger"} characteristic wins). Surface: ${view.surface}, χ = ${view.surface_chi}.`];
  if (view.swap && view.swap.swapped) notes.push("The colours were swapped.");
  box.append(el("p", { class: "note" }, notes.join(" ")));
  if (ctx.canMove && state.legal_moves.includes("swap")) {
    const swap = el("button", { "data-move": "swap" }, "Swap colours");
    swap.addEventListener("click", () => ctx.play("swap"));
    box.append(swap);
  }
  if (!view.regions) return;
  const light = (cells, on) => {
    for (const name of cells) {
      svg.querySelectorAll(`[data-cell="${index.get(name)}"]`).forEach((n) => n.classList.toggle("twin-lit", on));
    }
  };
  const list = el("div", { class: "regions" });
  for (const p of ["X", "O"]) {
    const r = view.regions[p];
    const items = r.pieces.map((piece, i) => {
      const li = el("li", {}, `piece ${i + 1}: χ = ${piece.chi}, ${piece.loops} loop${piece.loops === 1 ? "" : "s"}, ${piece.cells.length} cells`);
      li.addEventListener("mouseenter", () => light(piece.cells, true));
      li.addEventListener("mouseleave", () => light(piece.cells, false));
      return li;
    });
    list.append(el("div", {},
      el("h4", {}, el("span", { class: `swatch ${view.colours[p]}` }), ` ${p}'s area: χ = ${r.chi}, ${r.components} piece${r.components === 1 ? "" : "s"}, ${r.loops} loop${r.loops === 1 ? "" : "s"}`),
      el("ul", {}, ...items)));
  }
  box.append(list);
}
