// Euler Getter: both scores live (V - E + F of each area); at the end each region's
// pieces outlined on the board with their χ and their independent loops drawn through
// their cells (on the disk and in 3D), and listed, lit on the board when hovered.
// Stones are drawn in their seat's colour (X or O), like everything else on the page.
import { el, plural } from "../draw.js";
import { drawSurface } from "../surface.js";
import { t, valueName } from "../i18n.js";

export const swapLabel = "Swap colours";
/** The view's field of each cell's stone: what a set-up position changes. */
export const positionField = "owners";

/** Each seat's score: χ of its area, with the V − E + F it counts. */
export function scores(view) {
  const one = (p) => {
    const s = view.score[p];
    return { value: s.chi, text: `χ = ${s.chi}`, detail: `V ${s.vertices} − E ${s.edges} + F ${s.faces}` };
  };
  return { X: one("X"), O: one("O") };
}

/** How the game was won, for the end card: each area's characteristic with its pieces and
 * loops, and which the rule favours. */
export function endNote(view, { winner, loser }) {
  const area = (p) => {
    const { chi } = view.score[p];
    const region = view.regions && view.regions[p];
    return region ? t("χ = {chi} ({pieces}, {loops})", { chi, pieces: plural(region.components, "piece"), loops: plural(region.loops, "loop") })
      : `χ = ${chi}`;
  };
  const params = { winner, loser, won: area(winner), lost: area(loser) };
  return view.rule === "reverse"
    ? t("{winner}'s area has {won}, {loser}'s {lost}: the smaller characteristic wins.", params)
    : t("{winner}'s area has {won}, {loser}'s {lost}: the larger characteristic wins.", params);
}

export function render(box, state, ctx) {
  const view = state.view;
  const index = new Map(state.layout.names.map((n, i) => [n, i]));
  const outlines = [];
  const loops = [];
  if (view.regions) {
    for (const p of ["X", "O"]) {
      view.regions[p].pieces.forEach((piece) => {
        outlines.push({
          cells: piece.cells.map((n) => index.get(n)), cls: p,
          label: `χ ${piece.chi}${piece.loops ? `, ${plural(piece.loops, "loop")}` : ""}`,
        });
        for (const cycle of piece.loop_cycles) loops.push({ cells: cycle.map((n) => index.get(n)), cls: p });
      });
    }
  }
  const svg = drawSurface(box, state, ctx, { fill: (cell) => view.owners[cell] || "empty", outlines, loops });
  const rule = view.rule === "reverse" ? t("Rule: reverse (the smaller characteristic wins).") : t("Rule: {rule} (the larger characteristic wins).", { rule: valueName(view.rule) });
  const notes = [rule, t("Surface: {surface}, χ = {chi}.", { surface: surfaceName(view.surface), chi: view.surface_chi })];
  if (view.swap && view.swap.swapped) notes.push(t("The colours were swapped: each seat took over the other's stones."));
  box.append(el("p", { class: "note" }, notes.join(" ")));
  if (view.regions) box.append(regionList(view, svg, index));
}

/** A surface as the server names it ("projective plane", "genus-2 surface", "N3"), in the
 * reader's language. */
function surfaceName(surface) {
  const genus = /^genus-(\d+) surface$/.exec(surface);
  if (genus) return t("genus-{genus} surface", { genus: genus[1] });
  return /^N\d+$/.test(surface) ? surface : t(surface);
}

// Each player's area, piece by piece; hovering a piece lights its cells on the board.
function regionList(view, svg, index) {
  const light = (cells, on) => {
    for (const name of cells) {
      svg.querySelectorAll(`[data-cell="${index.get(name)}"]`).forEach((n) => n.classList.toggle("twin-lit", on));
    }
  };
  const list = el("div", { class: "regions" });
  for (const p of ["X", "O"]) {
    const r = view.regions[p];
    const items = r.pieces.map((piece, i) => {
      const li = el("li", { tabindex: "0" }, t("piece {number}: χ = {chi}, {loops}, {cells}",
        { number: i + 1, chi: piece.chi, loops: plural(piece.loops, "loop"), cells: plural(piece.cells.length, "cell") }));
      for (const [on, events] of [[true, ["mouseenter", "focus"]], [false, ["mouseleave", "blur"]]]) {
        for (const event of events) li.addEventListener(event, () => light(piece.cells, on));
      }
      return li;
    });
    list.append(el("div", {},
      el("h4", {}, el("span", { class: `swatch ${p}` }), t(" {seat}'s area: χ = {chi}, {pieces}, {loops}",
        { seat: p, chi: r.chi, pieces: plural(r.components, "piece"), loops: plural(r.loops, "loop") })),
      el("ul", {}, ...items)));
  }
  return list;
}
