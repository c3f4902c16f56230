// Projective Hex: the disk with twin halves and ghosts; the winning loop at the end,
// through the cells' centres and across the rim where the loop crosses it.
import { el } from "../draw.js";
import { drawSurface } from "../surface.js";
import { t, valueName } from "../i18n.js";

export const swapLabel = "Swap: take over the opening";
/** The view's field of each cell's stone: what a set-up position changes. */
export const positionField = "stones";

/** How the game was won, for the end card: the winning loop. */
export function endNote(view) {
  return view.loop && view.loop.length ? t("By the global loop {loop} ({count} cells).", { loop: view.loop.join(" – "), count: view.loop.length }) : "";
}

export function render(box, state, ctx) {
  const view = state.view;
  const index = new Map(state.layout.names.map((n, i) => [n, i]));
  const loop = (view.loop || []).map((n) => index.get(n));
  drawSurface(box, state, ctx, {
    fill: (cell) => view.stones[cell] || "empty",
    marked: new Set(loop),
    loop,
  });
  const notes = [];
  if (view.opening && view.opening !== "standard") notes.push(t("Opening: {opening}.", { opening: valueName(view.opening) }));
  if (view.swapped) notes.push(t("The colours were swapped."));
  if (view.stone_to_place && state.to_move && view.stone_to_place !== state.to_move) {
    // "an X", "an O": both letters are read with a vowel first.
    notes.push(t("{mover} places an {stone} stone (opening).", { mover: state.to_move, stone: view.stone_to_place }));
  }
  if (loop.length) notes.push(t("Winning loop: {loop}.", { loop: view.loop.join(" – ") }));
  if (notes.length) box.append(el("p", { class: "note" }, notes.join(" ")));
}
