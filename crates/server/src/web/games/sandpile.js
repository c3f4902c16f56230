// The sandpile toppling game: the graph or grid, each vertex with its name, owner, score
// and threshold; the last move's cascade is replayed step by step, vertex by vertex.
import { el, moveTarget } from "../draw.js";
import { drawGraph, drawVertex, graphIn3d } from "../graph.js";
import { t } from "../i18n.js";

/** Each seat's score: the vertices it holds (holding them all wins). */
export function scores(view) {
  const held = (p) => view.vertices.filter((v) => v.owner === p).length;
  const one = (p) => ({ value: held(p), text: t("{held} of {count} vertices", { held: held(p), count: view.vertices.length }) });
  return { X: one("X"), O: one("O") };
}

/** How the game was won, for the end card: one colour holding every vertex ends it. */
export function endNote(view, { winner }) {
  return t("{winner} holds all {count} vertices: one colour holding every vertex ends the game.", { winner, count: view.vertices.length });
}

/** Why the game ended in a draw, for the end card: the placement limit (reached only
 * where grains drain into sinks), both colours toppling for ever, or no vertex left for
 * the player to move. */
export function drawNote(view, { toMove }) {
  if (view.placements >= view.move_limit) {
    return t("{placed} grains were placed, the game's limit: a draw.", { placed: view.placements });
  }
  const toppling = (p) => view.vertices.some((v) => v.erupted && v.owner === p);
  if (toppling("X") && toppling("O")) {
    return t("Both colours hold vertices that topple for ever, so neither can hold every vertex: a draw.");
  }
  return t("{mover} has no vertex left to place a grain on: a draw.", { mover: toMove });
}

/** What a solve adds for this game: whether every way of playing ends alike (the seed's
 * first question), when its search finished. */
export function describeSolve(answer) {
  const result = (r) => (r === "draw" ? t("a draw") : t("{winner} wins", { winner: r }));
  const results = answer.possible_winners || [];
  if (answer.predetermined === true) return t("Whatever anyone plays, {result}: the result is predetermined.", { result: result(results[0]) });
  if (answer.predetermined === false) return t("Not predetermined: other play can end otherwise ({results}).", { results: results.map(result).join(", ") });
  return null;
}

export function render(box, state, ctx) {
  const view = state.view;
  const { svg, board, pos, edgeNodes } = drawGraph(view.vertices.length, view.edges, { grid: view.grid, directed: view.directed });
  const legal = new Set(state.legal_moves);
  const last = view.last_move;
  const score = (v) => `${v.score}/${v.threshold}`;
  const nodes = new Map();
  view.vertices.forEach((v, i) => {
    const node = drawVertex(svg, pos[i], {
      cls: v.owner || "empty", inner: score(v), name: v.name, r: 20,
      title: t("vertex {name}: score {score} of {threshold}", { name: v.name, score: v.score, threshold: v.threshold }),
    });
    moveTarget(node, legal.has(v.name) ? v.name : null, ctx);
    if (last && last.vertex === v.name) node.classList.add("last");
    nodes.set(v.name, node);
  });
  box.append(board, el("p", { class: "note" },
    t("Grains placed: {placed} (the game stops at {limit}). Each vertex shows its name, and its score over its threshold.", { placed: view.placements, limit: view.move_limit })));
  graphIn3d(board, {
    pos, edges: view.edges, edgeNodes, directed: view.directed,
    vertices: view.vertices.map((v) => ({ node: nodes.get(v.name), name: v.name, text: score(v), chips: v.score })),
    edgeLabels: null,
    help: t("Each vertex shows its score over its threshold, its grains stacked on it. Click a vertex to place a grain there."),
  }, state, ctx);
  if (last && last.reached.length === 1 && !last.erupted) {
    box.append(el("p", { class: "note" }, t("Last grain on {vertex}: it reached no other vertex.", { vertex: last.vertex })));
  } else if (last && last.reached.length) {
    // The names apart in words too (commas), not only by their margins: a screen reader
    // read "7 4 6" as one number.
    const names = last.reached.map((name) => el("span", { "data-vertex": name }, name));
    const steps = el("span", { class: "cascade" }, ...names.flatMap((name, i) => (i ? [", ", name] : [name])));
    box.append(el("p", { class: "note" }, t("Last grain on {vertex}: the cascade reached ", { vertex: last.vertex }), steps,
      last.erupted ? t(" and erupted (it never stops).") : t(".")));
    // Replay the cascade: light the reached vertices, and their names below, in turn.
    last.reached.forEach((name, step) => {
      const word = steps.children[step];
      setTimeout(() => { nodes.get(name)?.classList.add("reached"); word.classList.add("reached"); }, 300 * (step + 1));
      setTimeout(() => { nodes.get(name)?.classList.remove("reached"); word.classList.remove("reached"); }, 300 * (step + 1) + 900);
    });
  }
}
