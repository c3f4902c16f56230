// The manifold decomposition game: each surface as a card with its picture (a sphere, a body
// with a hole per handle, or a disk with a crosscap symbol per crosscap), each legal move
// as a button saying in words which curve is cut and what is left. Pointing at a move (or
// focusing it) draws its curve on the surface it cuts, the surface redrawn in the form
// where that curve is plain to see (Dyck's theorem: a handle and a crosscap are as good
// as three crosscaps). The hint's button and the surface it cuts are ringed; the surfaces
// the last move left are marked. Beside the cards the same surfaces in 3D (manifold3d.js),
// the curve drawn there too.
import { el, loadedLater, plural, roomFor3d, without3d } from "../draw.js";
import { t } from "../i18n.js";

// The 3D view, loaded once the cards are drawn, and a surface drawn there in a move's form.
const load3d = () => import("../manifold3d.js");
const beside3d = loadedLater(() => load3d().then((module) => module.manifold3d));
const pointAt3d = loadedLater(() => load3d().then((module) => module.pointAt));
// Past this many handles and crosscaps in all (1,625 points each in 3D, tubes between
// them) the surfaces would take seconds to build and turn (o1000 alone: 1.7 million
// points), and their labels would be a blur.
const MAX_FEATURES_3D = 200;

/** The 3D view of `surfaces` beside `cards`, for the game `key`, where they are not too
 * many for it. */
function besideCards(cards, surfaces, key) {
  if (surfaces.reduce((sum, s) => sum + s.genus, 0) > MAX_FEATURES_3D) {
    without3d(cards, t("This position has too many handles and crosscaps for the 3D view."));
  } else if (roomFor3d(cards, { flatTab: "Cards", help: "", arrange: "halves" })) {
    beside3d(cards, surfaces, key);
  }
}

/** The genus of a surface's name: `o3` and `n2` give 3 and 2, the sphere `S` 0. */
const genusOf = (name) => Number((/^[on](\d+)$/.exec(name) || [0, 0])[1]);

/**
 * How a move's curve is drawn: the handles and crosscaps of the form drawn (handles first)
 * and the curve: `ring` around a handle's hole, `after` a separating curve behind the first
 * so many features, `one` a one-sided curve through a crosscap, `two` a two-sided one
 * through two crosscaps side by side (Theorem 2.1's cases a to h).
 */
const FORMS = {
  a: (genus) => ({ handles: genus, crosscaps: 0, cut: { ring: 0 } }),
  b: (genus, [first]) => ({ handles: genus, crosscaps: 0, cut: { after: first } }),
  c: (genus) => ({ handles: 0, crosscaps: genus, cut: { one: 0 } }),
  d: (genus, [rest]) => ({ handles: rest, crosscaps: 1, cut: { one: rest } }),
  e: (genus) => ({ handles: 0, crosscaps: genus, cut: { two: 0 } }),
  f: (genus, [rest]) => ({ handles: rest, crosscaps: 2, cut: { two: rest } }),
  g: (genus, [first]) => ({ handles: 0, crosscaps: genus, cut: { after: first } }),
  h: (genus, [handles]) => ({ handles, crosscaps: genus - 2 * handles, cut: { after: handles } }),
};

/** The form of a surface drawn on its own: its handles, or its crosscaps. */
function plainForm(surface) {
  return surface.orientable
    ? { handles: surface.genus, crosscaps: 0, cut: null }
    : { handles: 0, crosscaps: surface.genus, cut: null };
}

function moveForm(surface, move) {
  return FORMS[move.letter](surface.genus, move.into.map(genusOf));
}

const SLOT = 64; // the width a handle or a crosscap takes
const EDGE = 14; // the body's rounded end beyond the first and last
const HEIGHT = 70;
const CROSSCAP = 13; // the crosscap symbol's radius

/** A surface's picture in `form`, with the form's curve when it has one. */
function picture(form) {
  const { handles, crosscaps, cut } = form;
  const features = handles + crosscaps;
  const half = HEIGHT / 2;
  const kinds = [[handles, "handle"], [crosscaps, "crosscap"]].filter(([n]) => n > 0).map(([n, word]) => plural(n, word));
  const label = `${kinds.join(t(" and ")) || t("a sphere")}${cut ? t(", and the curve cut") : ""}`;
  if (features === 0) {
    return el("svg", { viewBox: `${-half - 2} ${-half - 2} ${HEIGHT + 4} ${HEIGHT + 4}`, class: "surface-picture", role: "img", "aria-label": label },
      el("circle", { class: "body", cx: 0, cy: 0, r: half }),
      el("ellipse", { class: "equator", cx: 0, cy: 0, rx: half, ry: half / 4 }));
  }
  const width = 2 * EDGE + SLOT * features;
  const at = (slot) => EDGE + SLOT * (slot + 0.5);
  const svg = el("svg", { viewBox: `-2 ${-half - 2} ${width + 4} ${HEIGHT + 4}`, class: "surface-picture", role: "img", "aria-label": label },
    el("rect", { class: "body", x: 0, y: -half, width, height: HEIGHT, rx: half }));
  for (let slot = 0; slot < features; slot++) {
    const x = at(slot);
    svg.append(slot < handles
      ? el("g", { class: "handle" },
        // The hole: a wide smile and, its ends on the smile, a narrower frown.
        el("path", { d: `M ${x - 22} -4 Q ${x} 14 ${x + 22} -4` }),
        el("path", { d: `M ${x - 14} 1.4 Q ${x} -6 ${x + 14} 1.4` }))
      : el("g", { class: "crosscap" },
        el("circle", { cx: x, cy: 0, r: CROSSCAP }),
        el("path", { d: `M ${x - 9} -9 L ${x + 9} 9 M ${x - 9} 9 L ${x + 9} -9` })));
  }
  if (!cut) return svg;
  const r = CROSSCAP;
  if ("ring" in cut) {
    svg.append(el("ellipse", { class: "cut", cx: at(cut.ring), cy: 2, rx: 28, ry: 17 }));
  } else if ("after" in cut) {
    const x = EDGE + SLOT * cut.after;
    svg.append(
      el("path", { class: "cut back", d: `M ${x} ${-half} Q ${x - 12} 0 ${x} ${half}` }),
      el("path", { class: "cut", d: `M ${x} ${-half} Q ${x + 12} 0 ${x} ${half}` }));
  } else if ("one" in cut) {
    // From the crosscap's top to its bottom, the antipodal point: one closed curve.
    const x = at(cut.one);
    svg.append(el("path", { class: "cut", d: `M ${x} ${-r} C ${x + 40} -32 ${x + 40} 32 ${x} ${r}` }));
  } else {
    // Into each crosscap at its top and out at its bottom: through two, so two-sided.
    const [x, y] = [at(cut.two), at(cut.two + 1)];
    svg.append(el("path", { class: "cut", d: `M ${x} ${-r} C ${x} -31 ${y} -31 ${y} ${-r} M ${x} ${r} C ${x} 31 ${y} 31 ${y} ${r}` }));
  }
  return svg;
}

/** The picture of `surface` in `form`, saying so when a handle stands for two crosscaps. */
function drawing(surface, form) {
  const svg = picture(form);
  if (surface.orientable || form.handles === 0) return [svg];
  const as = `${plural(form.handles, "handle")}${t(" and ")}${plural(form.crosscaps, "crosscap")}`;
  return [svg, el("div", { class: "form-note" }, t("drawn as {form}: the same surface", { form: as }))];
}

/** A move's notation read: "g:n5->n2+n3" is the cut (g) of n5 into n2 and n3; null if
 * it is not a cut. */
function parseCut(move) {
  const [, letter, from, into] = /^([a-h]):(\w+)->(.*)$/.exec(move || "") || [];
  return letter ? { letter, from, into: into.split("+") } : null;
}

/** How the game was won, for the end card: normal play, whoever cannot move loses. */
export function endNote(view, { winner, loser }) {
  return t("{winner} made the last cut: only spheres are left, where every curve bounds a disc, so {loser} cannot move.", { winner, loser });
}

/** A move in words, from its notation ("g:n5->n2+n3") and the letters' curves in `view`. */
export function describeMove(move, view) {
  const cut = parseCut(move);
  if (!cut || !view.curves) return null;
  return t("on {surface}, {curve}; leaves {rest}", { surface: cut.from, curve: t(view.curves[cut.letter]), rest: cut.into.join(" + ") });
}

export function render(box, state, ctx) {
  const view = state.view;
  const hinted = ctx.canMove && view.moves.find((m) => m.move === ctx.hint);
  // "g:n3->n1+n2": the last cut left n1 and n2.
  const left = parseCut(ctx.last)?.into ?? [];
  const cards = el("div", { class: "cards" });
  // The first card of each surface, with its picture at rest: the one a move is drawn on.
  const shown = new Map();
  const in3d = [];
  for (const s of view.surfaces) {
    const kind = s.genus === 0 ? t("sphere") : s.orientable ? t("orientable, genus {genus}", { genus: s.genus })
      : t("non-orientable, {crosscaps}", { crosscaps: plural(s.genus, "cross-cap") });
    const marks = [s.genus === 0 ? "dead" : "", hinted && hinted.from === s.name ? "hint" : "", left.includes(s.name) ? "last" : ""];
    if (left.includes(s.name)) left.splice(left.indexOf(s.name), 1);
    const hint = Boolean(hinted && hinted.from === s.name && !shown.has(s.name));
    const rest = hint ? moveForm(s, hinted) : plainForm(s);
    const pictureBox = el("div", { class: "picture" }, ...drawing(s, rest));
    if (!shown.has(s.name)) shown.set(s.name, { surface: s, pictureBox, rest, index: in3d.length, move: hint ? hinted.move : null });
    in3d.push({ name: s.name, genus: s.genus, orientable: s.orientable, kind, form: rest, move: hint ? hinted.move : null, last: marks[2] !== "", hint: marks[1] !== "" });
    cards.append(el("div", { class: `card ${marks.join(" ")}`.trim(), "data-surface": s.name },
      el("div", { class: "name" }, s.name),
      pictureBox,
      el("div", {}, kind),
      el("div", {}, `χ = ${s.euler_characteristic}`)));
  }
  const lastWords = ctx.last && describeMove(ctx.last, view);
  box.append(el("p", {}, t("Position: {position}", { position: view.position })), cards);
  // A still picture (the rules pages) shows the cards alone.
  if (!ctx.still) besideCards(cards, in3d, state.id);
  if (lastWords) box.append(el("p", { class: "note last-move" }, t("Last move, {move}: {words}.", { move: ctx.last, words: lastWords })));
  if (!ctx.canMove) return;
  const list = el("div", { class: "move-list" });
  for (const m of view.moves) {
    const marks = [ctx.hint === m.move ? "hint" : "", ctx.solved && ctx.solved.has(m.move) ? "solved" : ""];
    const b = el("button", { "data-move": m.move, class: marks.filter(Boolean).join(" ") || null },
      `${m.move}: ${t("on {surface}, {curve}; leaves {rest}", { surface: m.from, curve: t(m.curve), rest: m.into.join(" + ") || t("a sphere") })}`);
    b.addEventListener("click", () => ctx.play(m.move));
    const card = shown.get(m.from);
    const draw = (form, move) => {
      card.pictureBox.replaceChildren(...drawing(card.surface, form));
      pointAt3d(cards, card.index, form, move);
    };
    for (const event of ["mouseenter", "focus"]) b.addEventListener(event, () => draw(moveForm(card.surface, m), m.move));
    for (const event of ["mouseleave", "blur"]) b.addEventListener(event, () => draw(card.rest, card.move));
    list.append(b);
  }
  box.append(el("h3", {}, t("Your moves")), list);
}
