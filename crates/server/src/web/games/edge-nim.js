// Edge-Nim: the graph with the tokens on each edge. Pick a vertex, then how many tokens
// to leave on each of its edges. A hint or the last move rings its vertex and marks the
// edges it takes from, the hint with the tokens it leaves ("2→0"); the vertices of the
// solve's best moves are dashed.
import { el, actionTarget, focusTyping } from "../draw.js";
import { drawGraph, drawVertex, graphIn3d } from "../graph.js";
import { t } from "../i18n.js";

// "2:a=1,C=0" -> { vertex: "2", left: Map { a => 1, C => 0 } }
function parse(move) {
  if (!move || !move.includes(":")) return null;
  const [vertex, changes] = move.split(":");
  return { vertex, left: new Map(changes.split(",").filter(Boolean).map((c) => c.split("=")).map(([e, n]) => [e, Number(n)])) };
}

/** A move in words: "2:a=1,C=0" is "at vertex 2, leaving 1 on a, 0 on C". */
export function describeMove(move) {
  const taken = parse(move);
  if (!taken) return null;
  const left = [...taken.left].map(([edge, n]) => t("{count} on {edge}", { count: n, edge })).join(", ");
  return t("at vertex {vertex}, leaving {left}", { vertex: taken.vertex, left });
}

/** How the game was won, for the end card: normal play, whoever cannot move loses. */
export function endNote(view, { winner, loser }) {
  return t("{winner} took the last tokens: with every edge empty, {loser} cannot move.", { winner, loser });
}

/** The move the counts typed at `vertex` make, or null, with what is wrong said in
 * `error` (checked here, so that the panel stays as typed rather than drawn anew after
 * the server's refusal in its notation). */
function takeMove(vertex, inputs, error) {
  for (const [edge, input] of inputs) {
    const left = Number(input.value);
    if (input.value.trim() === "" || !Number.isInteger(left) || left < 0 || left > edge.tokens) {
      error.textContent = t("Edge {edge} has {count} tokens: leave a whole number from 0 to {count}.", { edge: edge.name, count: edge.tokens });
      focusTyping(input);
      return null;
    }
  }
  const changes = inputs.filter(([e, i]) => Number(i.value) < e.tokens).map(([e, i]) => `${e.name}=${Number(i.value)}`);
  if (!changes.length) {
    error.textContent = t("Leave fewer tokens on at least one edge: a move takes at least one.");
    return null;
  }
  return `${vertex}:${changes.join(",")}`;
}

// The vertex picked, its count boxes on each board (with the edges typed in, whose counts
// a hint no longer suggests) and what the last Take said was wrong, kept while its
// position stays: a redraw of the same position (after a hint, say) puts the same boxes
// back, as the player left them and the one typed in with its caret, and the error under
// them.
const picks = new WeakMap();

export function render(box, state, ctx) {
  const view = state.view;
  const position = `${state.id} ${state.ply} ${view.tokens.join(",")}`;
  if (picks.get(box)?.position !== position) picks.set(box, { position, vertex: null, boxes: new Map(), typed: new Set(), error: null });
  const kept = picks.get(box);
  const index = new Map(view.vertices.map((v, i) => [v, i]));
  const hint = parse(ctx.hint);
  const last = parse(ctx.last);
  // The vertices the solve's best moves play at, dashed.
  const solvedFrom = new Set([...(ctx.solved || [])].map((m) => parse(m).vertex));
  // An edge's tokens, and with a hint what it leaves there ("2→0").
  const tokens = (edge) => (hint && hint.left.has(edge.name) ? `${edge.tokens}→${hint.left.get(edge.name)}` : String(edge.tokens));
  const edges = view.edges.map((e) => e.ends.map((v) => index.get(v)));
  const { svg, board, pos, edgeNodes } = drawGraph(view.vertices.length, edges, {
    edgeNames: view.edges.map((e) => e.name),
    edgeLabel: (e, [x, y], [nx, ny]) => {
      const edge = view.edges[e];
      const hinted = hint && hint.left.has(edge.name);
      return el("g", { class: `token-label${hinted ? " hint" : ""}`, "data-edge": edge.name },
        el("circle", { cx: x, cy: y, r: 13, class: "tokens" }),
        el("text", { x, y }, tokens(edge)),
        el("text", { x: nx, y: ny, class: "ename" }, edge.name));
    },
  });
  view.edges.forEach((edge, e) => {
    if (last && last.left.has(edge.name)) edgeNodes[e].classList.add("last");
    if (hint && hint.left.has(edge.name)) edgeNodes[e].classList.add("hint");
  });
  const panel = el("div", { class: "take", id: "take" }, ctx.canMove ? t("Pick a vertex (click it, or Tab to it and press Enter).") : "");
  const nodes = view.vertices.map((name, v) => {
    const node = drawVertex(svg, pos[v], { cls: "empty", inner: name, r: 16 });
    if (hint && hint.vertex === name) node.classList.add("hint");
    if (solvedFrom.has(name)) node.classList.add("solved");
    if (last && last.vertex === name) node.classList.add("last");
    node.setAttribute("data-vertex", name);
    if (ctx.canMove) {
      node.classList.add("pickable");
      actionTarget(node, t("vertex {name}", { name }), () => pick(v));
    }
    return node;
  });
  // `again`: the panel drawn anew as the player left it, the focus left where it is.
  function pick(v, again = false) {
    nodes.forEach((n, i) => n.classList.toggle("selected", i === v));
    const name = view.vertices[v];
    if (!again) Object.assign(kept, { vertex: name, boxes: new Map(), typed: new Set(), error: null });
    const mine = view.edges.filter((e) => e.ends.includes(name) && e.tokens > 0);
    panel.replaceChildren(el("strong", {}, t("Vertex {name}: tokens to leave on each edge", { name })), el("br"));
    if (!mine.length) { panel.append(t("No edge at this vertex has tokens.")); return; }
    // A form, so that Enter in a number box takes; checked by `takeMove`, which says what
    // is wrong in the page's language.
    const form = el("form", { novalidate: "" });
    const inputs = mine.map((e) => {
      const suggested = hint && hint.vertex === name && hint.left.has(e.name) ? hint.left.get(e.name) : e.tokens;
      let input = kept.boxes.get(e.name);
      if (!input) {
        input = el("input", { type: "number", min: 0, max: e.tokens, name: e.name });
        input.addEventListener("input", () => kept.typed.add(e.name));
        kept.boxes.set(e.name, input);
      }
      if (!kept.typed.has(e.name)) input.value = suggested;
      form.append(el("label", {}, `${e.name} (${e.tokens}): `, input));
      return [e, input];
    });
    kept.error ??= el("p", { class: "error", id: "take-error", role: "alert" });
    const error = kept.error;
    form.append(el("button", { class: "primary", id: "take-button", type: "submit" }, t("Take")), error);
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const move = takeMove(name, inputs, error);
      if (move) ctx.play(move);
    });
    panel.append(form);
    if (!again) focusTyping(inputs[0][1]);
  }
  if (ctx.canMove && index.has(kept.vertex)) pick(index.get(kept.vertex), true);
  box.append(board, panel);
  graphIn3d(board, {
    pos, edges, edgeNodes,
    vertices: view.vertices.map((name, v) => ({ node: nodes[v], name, text: name })),
    edgeLabels: view.edges.map((edge) => ({ name: edge.name, text: tokens(edge) })),
    help: t("Each edge shows its tokens and its name. Click a vertex to pick it."),
  }, state, ctx);
}
