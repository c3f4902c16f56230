// The manifold decomposition game: each surface as a card, each legal move as a button
// saying in words which curve is cut and what is left. The hint's button and the surface
// it cuts are ringed; the surfaces the last move left are marked.
import { el, plural } from "../draw.js";

export function render(box, state, ctx) {
  const view = state.view;
  const hinted = ctx.canMove && view.moves.find((m) => m.move === ctx.hint);
  // "g:n3->n1+n2": the last cut left n1 and n2.
  const left = ctx.last && ctx.last.includes("->") ? ctx.last.split("->")[1].split("+") : [];
  const cards = el("div", { class: "cards" });
  for (const s of view.surfaces) {
    const kind = s.genus === 0 ? "sphere" : s.orientable ? `orientable, genus ${s.genus}` : `non-orientable, ${plural(s.genus, "cross-cap")}`;
    const marks = [s.genus === 0 ? "dead" : "", hinted && hinted.from === s.name ? "hint" : "", left.includes(s.name) ? "last" : ""];
    if (left.includes(s.name)) left.splice(left.indexOf(s.name), 1);
    cards.append(el("div", { class: `card ${marks.join(" ")}`.trim() },
      el("div", { class: "name" }, s.name),
      el("div", {}, kind),
      el("div", {}, `χ = ${s.euler_characteristic}`)));
  }
  box.append(el("p", {}, `Position: ${view.position}`), cards);
  if (!ctx.canMove) return;
  const list = el("div", { class: "move-list" });
  for (const m of view.moves) {
    const b = el("button", { "data-move": m.move, class: ctx.hint === m.move ? "hint" : null },
      `${m.move}: on ${m.from}, ${m.curve}; leaves ${m.into.join(" + ") || "a sphere"}`);
    b.addEventListener("click", () => ctx.play(m.move));
    list.append(b);
  }
  box.append(el("h3", {}, "Your moves"), list);
}
