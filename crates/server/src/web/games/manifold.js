// The manifold decomposition game: each surface as a card, each legal move as a button
// saying in words which curve is cut and what is left.
import { el } from "../draw.js";

export function render(box, state, ctx) {
  const view = state.view;
  const cards = el("div", { class: "cards" });
  for (const s of view.surfaces) {
    const kind = s.genus === 0 ? "sphere" : s.orientable ? `orientable, genus ${s.genus}` : `non-orientable, ${s.genus} cross-cap${s.genus > 1 ? "s" : ""}`;
    cards.append(el("div", { class: `card${s.genus === 0 ? " dead" : ""}` },
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
