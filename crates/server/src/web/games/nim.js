// Nim: heaps as rows of counters, a large heap over several rows of at most PER_ROW (so
// that its counters stay large enough to tap). Clicking a counter takes it and every
// counter after it, so the move leaves the counters before it. The hint rings the
// counters it takes; the last move's heap is marked, and the counters it took are left
// as dashed outlines. Beside the drawing the heaps stand in 3D (nim3d.js), played there too.
import { el, loadedLater, roomFor3d, svgBox, moveTarget, without3d } from "../draw.js";
import { t } from "../i18n.js";

/** How the game was won, for the end card: normal play, whoever cannot move loses. */
export function endNote(view, { winner, loser }) {
  return t("{winner} took the last counter: with every heap empty, {loser} cannot move.", { winner, loser });
}

const PER_ROW = 10;

// The 3D view, loaded after the flat drawing.
const beside3d = loadedLater(() => import("../nim3d.js").then((module) => module.nim3d));
// Past this many heaps the 3D view's row would be a blur of thin stacks.
const MAX_HEAPS_3D = 60;
/** In 3D, a tall heap shows its lowest `half` counters and its top `half`, and at most
 * `ghosts` of the counters the last move took. */
export const TALL = { half: 12, ghosts: 6 };

/** What the 3D view of `heaps` (as nim3d.js takes them) shows and what a click does. */
function help3d(heaps) {
  const { half, ghosts } = TALL;
  const capped = heaps.some(({ size, drawn }) => size > 2 * half || drawn - size > ghosts);
  return [
    t("Each heap shows its number in front of it and its size over it; the counters the last move took stand faint over their heap. Click a counter to take it and every counter above it."),
    capped ? t("A heap of over {cap} counters shows its lowest {half} and its top {half}, with how many more lie between them (+), and at most {ghosts} of the counters taken.", { cap: 2 * half, half, ghosts }) : "",
  ].filter(Boolean).join(" ");
}

/** Each heap's size before the last move shown: the board's heaps (written with spaces
 * or commas) with every earlier move played on them; null where they do not read. */
function heapsBefore(state) {
  const heaps = state.board.split(/[\s,]+/).filter(Boolean).map(Number);
  for (const move of state.moves.slice(0, state.ply - 1)) {
    const [heap, left] = move.split(":").map(Number);
    heaps[heap - 1] = left;
  }
  return heaps.length === state.view.heaps.length && heaps.every(Number.isInteger) ? heaps : null;
}

export function render(box, state, ctx) {
  const heaps = state.view.heaps;
  const lastHeap = ctx.last ? Number(ctx.last.split(":")[0]) : 0;
  const before = lastHeap ? heapsBefore(state) : null;
  // Each heap's drawn length: the last move's heap as long as it was.
  const drawn = heaps.map((size, h) => (before && lastHeap === h + 1 ? Math.max(size, before[h]) : size));
  const widest = Math.min(PER_ROW, Math.max(1, ...drawn));
  const rows = drawn.map((size) => Math.max(1, Math.ceil(size / PER_ROW)));
  const svg = svgBox([0, 0, 60 + widest * 28, rows.reduce((sum, r) => sum + r * 28 + 8, 0)], 12);
  // Up to twice its size, as wide as there is room for: at its own, beside the 3D view,
  // the heaps sat small at the top of a tall box.
  svg.classList.add("heaps");
  for (const side of ["width", "height"]) svg.setAttribute(side, 2 * Number(svg.getAttribute(side)));
  const [hintHeap, hintLeft] = ctx.hint ? ctx.hint.split(":").map(Number) : [0, 0];
  let top = 14;
  const in3d = [];
  heaps.forEach((size, h) => {
    const y = top;
    top += rows[h] * 28 + 8;
    svg.append(el("text", { x: 16, y, class: lastHeap === h + 1 ? "heap last" : "heap" }, `${h + 1}`));
    const counters = [];
    for (let k = 0; k < size; k++) {
      const c = el("circle", { class: "counter", cx: 50 + (k % PER_ROW) * 28, cy: y + Math.floor(k / PER_ROW) * 28, r: 11 },
        el("title", {}, t("take {count} from heap {heap}", { count: size - k, heap: h + 1 })));
      moveTarget(c, `${h + 1}:${k}`, ctx);
      if (hintHeap === h + 1 && k >= hintLeft) c.classList.add("hint");
      for (const [on, events] of [[true, ["mouseenter", "focus"]], [false, ["mouseleave", "blur"]]]) {
        for (const event of events) c.addEventListener(event, () => counters.slice(k).forEach((o) => o.classList.toggle("lit", on)));
      }
      counters.push(c);
      svg.append(c);
    }
    for (let k = size; k < drawn[h]; k++) {
      svg.append(el("circle", { class: "counter taken", cx: 50 + (k % PER_ROW) * 28, cy: y + Math.floor(k / PER_ROW) * 28, r: 11, "aria-hidden": "true" }));
    }
    in3d.push({ size, drawn: drawn[h], last: lastHeap === h + 1, counters });
  });
  box.append(svg);
  // A still picture (the rules pages, a board before its game starts) goes alone.
  if (ctx.still) return;
  if (heaps.length > MAX_HEAPS_3D) without3d(svg, t("This position has too many heaps for the 3D view."));
  else if (roomFor3d(svg, { flatTab: "Flat", help: help3d(in3d) })) beside3d(svg, in3d, state);
}
