// Small DOM and SVG helpers shared by the page and the board drawings.
import { language, t } from "./i18n.js";
const SVG = "http://www.w3.org/2000/svg";
const SVG_TAGS = new Set(["svg", "g", "circle", "rect", "line", "path", "polygon", "polyline", "text", "title", "ellipse", "defs", "marker", "clipPath"]);

/** An element: HTML, or SVG for SVG tag names. Attributes with null values are skipped. */
export function el(tag, attrs = {}, ...children) {
  const node = SVG_TAGS.has(tag) ? document.createElementNS(SVG, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === "") continue;
    node.append(c instanceof Node ? c : String(c));
  }
  return node;
}

export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
}

/** "1 cell", "2 cells" (in Japanese, the translation of "{n} cell": no plural there). */
export function plural(n, word) {
  if (language !== "en") return t(`{n} ${word}`, { n });
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** An SVG element with a viewBox fitting [minX, minY, maxX, maxY] plus a margin. */
export function svgBox([minX, minY, maxX, maxY], margin = 10) {
  const w = maxX - minX + 2 * margin;
  const h = maxY - minY + 2 * margin;
  return el("svg", { viewBox: `${minX - margin} ${minY - margin} ${w} ${h}`, width: w, height: h });
}

/**
 * Makes a node a move: clickable, reachable with Tab and played with Enter or Space, ringed
 * when it is the hint. Does nothing when the player may not move.
 */
export function moveTarget(node, move, ctx) {
  markMove(node, move, ctx);
  if (!node.hasAttribute("data-move")) return node;
  return actionTarget(node, String(move), () => ctx.play(move));
}

/**
 * Sets (or clears) a node's move, hint ring and solve mark (a best move of the last solve,
 * `ctx.solved`) without listeners, for a drawing kept across moves whose root plays them
 * (see `playsMoves`). Of the copies of one cell drawn more than once, all play on a click
 * but only the first is a stop of Tab (`tabStop`): the others would be as many more.
 */
export function markMove(node, move, ctx, tabStop = true) {
  const known = move !== null && move !== undefined;
  node.classList.toggle("hint", known && ctx.hint === move);
  node.classList.toggle("solved", known && !!ctx.solved && ctx.solved.has(move));
  const playable = known && ctx.canMove;
  const attrs = { "data-move": move, tabindex: tabStop ? "0" : "-1", role: "button", "aria-label": move };
  for (const [name, value] of Object.entries(attrs)) {
    if (!playable) node.removeAttribute(name);
    else if (node.getAttribute(name) !== value) node.setAttribute(name, value);
  }
  return node;
}

/** Clicks, Enter and Space on any [data-move] below `root` play it in `ctx()`, the current context. */
export function playsMoves(root, ctx) {
  const play = (e) => {
    const node = e.target.closest("[data-move]");
    if (!node || !root.contains(node)) return false;
    ctx().play(node.getAttribute("data-move"));
    return true;
  };
  root.addEventListener("click", play);
  root.addEventListener("keydown", (e) => {
    if ((e.key === "Enter" || e.key === " ") && play(e)) e.preventDefault();
  });
}

/** Focuses a field to type in, except on a touch screen (a coarse pointer), where the
 * keyboard would come up over the board before the player asks for it. */
export function focusTyping(field) {
  if (!matchMedia("(pointer: coarse)").matches) field.focus();
}

/** Makes a node act on click, Enter and Space, and reachable with Tab. */
export function actionTarget(node, label, action) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.addEventListener("click", action);
  node.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" && e.key !== " ") return;
    e.preventDefault();
    action();
  });
  return node;
}

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
// Added to the cost of a piece more than 45° off the arrow's direction.
const OFF_THE_ARROW = 1e6;

/**
 * Arrow keys move the focus between the focusable pieces of a board: to the nearest one
 * in the arrow's direction, so that a board of any shape can be played from the keyboard.
 */
export function arrowKeys(box) {
  box.addEventListener("keydown", (e) => {
    const dir = ARROWS[e.key];
    const from = document.activeElement;
    if (!dir || !box.contains(from) || !from.matches("[tabindex]")) return;
    const centre = (node) => {
      const r = node.getBoundingClientRect();
      return [r.left + r.width / 2, r.top + r.height / 2];
    };
    const [fx, fy] = centre(from);
    let best = null;
    let bestCost = Infinity;
    for (const node of box.querySelectorAll("[tabindex]:not([tabindex='-1'])")) {
      if (node === from) continue;
      const [x, y] = centre(node);
      const along = (x - fx) * dir[0] + (y - fy) * dir[1];
      if (along <= 1) continue;
      const across = Math.abs((x - fx) * dir[1] - (y - fy) * dir[0]);
      // The nearest piece within 45° of the arrow, the one more in line winning a near
      // tie; one further aside only when there is none. (Costed as along + 2 × across, a
      // row of hexagons was skipped: the cell two rows straight below, 1.73 cells away,
      // cost less than the next row's, 0.87 below but half a cell aside.)
      const cost = Math.hypot(x - fx, y - fy) + across / 2 + (across > along ? OFF_THE_ARROW : 0);
      if (cost < bestCost) { bestCost = cost; best = node; }
    }
    if (best) { e.preventDefault(); best.focus(); }
  });
}

/** The zoomed views of boards drawn anew on every move, by board, the latest few. */
const keptViews = new Map();
const KEPT_VIEWS = 8;

/**
 * Zoom and pan for a board's SVG: the wheel and two fingers zoom about the pointer, a drag
 * pans (a drag of a few pixels is still a click), and the buttons zoom in, out and back.
 * A board drawn anew on every move passes `keep`, a key of what it draws: the next drawing
 * with the same key and the same whole view opens where the player left this one.
 * Returns the buttons' bar.
 */
export function panZoom(svg, keep = null) {
  const start = svg.getAttribute("viewBox").split(" ").map(Number);
  const kept = keep === null ? null : keptViews.get(keep);
  let box = kept && kept.start.every((v, i) => v === start[i]) ? [...kept.box] : [...start];
  const apply = () => {
    svg.setAttribute("viewBox", box.map((v) => v.toFixed(2)).join(" "));
    svg.classList.toggle("zoomed", box[2] < start[2] * 0.99);
    if (keep === null) return;
    keptViews.delete(keep);
    keptViews.set(keep, { start, box: [...box] });
    if (keptViews.size > KEPT_VIEWS) keptViews.delete(keptViews.keys().next().value);
  };
  const toSvg = (clientX, clientY) => {
    const r = svg.getBoundingClientRect();
    return [box[0] + ((clientX - r.left) / r.width) * box[2], box[1] + ((clientY - r.top) / r.height) * box[3]];
  };
  const zoom = (factor, [cx, cy]) => {
    const w = Math.min(start[2] * 1.5, Math.max(start[2] / 12, box[2] / factor));
    const k = w / box[2];
    box = [cx - (cx - box[0]) * k, cy - (cy - box[1]) * k, box[2] * k, box[3] * k];
    apply();
  };
  const middle = () => [box[0] + box[2] / 2, box[1] + box[3] / 2];
  svg.addEventListener("wheel", (e) => {
    e.preventDefault();
    zoom(e.deltaY < 0 ? 1.2 : 1 / 1.2, toSvg(e.clientX, e.clientY));
  }, { passive: false });

  const pointers = new Map();
  let dragged = false;
  let pinch = 0;
  svg.addEventListener("pointerdown", (e) => {
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    dragged = false;
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = Math.hypot(a[0] - b[0], a[1] - b[1]);
    }
  });
  svg.addEventListener("pointermove", (e) => {
    const last = pointers.get(e.pointerId);
    if (!last) return;
    const now = [e.clientX, e.clientY];
    if (pointers.size === 2) {
      pointers.set(e.pointerId, now);
      const [a, b] = [...pointers.values()];
      const span = Math.hypot(a[0] - b[0], a[1] - b[1]);
      if (pinch > 0) zoom(span / pinch, toSvg((a[0] + b[0]) / 2, (a[1] + b[1]) / 2));
      pinch = span;
      dragged = true;
      return;
    }
    // A few pixels of wobble is still a click; only then does the board follow the pointer
    // (capturing it earlier would take the click away from the cell under it).
    if (!dragged && Math.hypot(now[0] - last[0], now[1] - last[1]) < 6) return;
    if (!dragged) svg.setPointerCapture(e.pointerId);
    dragged = true;
    const r = svg.getBoundingClientRect();
    box[0] -= ((now[0] - last[0]) / r.width) * box[2];
    box[1] -= ((now[1] - last[1]) / r.height) * box[3];
    pointers.set(e.pointerId, now);
    apply();
  });
  const release = (e) => { pointers.delete(e.pointerId); pinch = 0; };
  svg.addEventListener("pointerup", release);
  svg.addEventListener("pointercancel", release);
  // A drag ends with a click on whatever is under the pointer: that click is not a move.
  svg.addEventListener("click", (e) => {
    if (dragged) { e.stopPropagation(); e.preventDefault(); dragged = false; }
  }, true);

  const button = (text, title, action) => {
    const b = el("button", { type: "button", title, "aria-label": title }, text);
    b.addEventListener("click", action);
    return b;
  };
  if (box.some((v, i) => v !== start[i])) apply();
  return el("div", { class: "zoom-bar" },
    button("+", t("Zoom in"), () => zoom(1.5, middle())),
    button("−", t("Zoom out"), () => zoom(1 / 1.5, middle())),
    button("⟲", t("Whole board"), () => { box = [...start]; apply(); }));
}

/** The bounding box of points. */
export function bounds(points) {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** A seeded random number generator (mulberry32): the same layout on every load. */
export function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A function of a module loaded on its first call (a 3D view: three.js is most of the
 * page's code, and the flat drawing is playable without it): `load()` answers the
 * function, which is then called with the latest arguments given meanwhile, unless their
 * first (the drawing it goes beside) has left the page by then. A 3D view's room is kept
 * first (`roomFor3d`).
 */
export function loadedLater(load) {
  let loaded = null;
  let waiting = null;
  return (...args) => {
    if (loaded) {
      loaded(...args);
      return;
    }
    if (!waiting) {
      load().then((f) => {
        loaded = f;
        if (waiting[0].isConnected) loaded(...waiting);
      });
    }
    waiting = args;
  };
}

// Whether the browser offers WebGL 2, asked once (see `roomFor3d`).
let webglOffered = null;

/** Whether the browser offers WebGL 2: a context is asked for once, and given back. */
export function offersWebgl() {
  if (webglOffered === null) {
    const gl = document.createElement("canvas").getContext("webgl2");
    webglOffered = Boolean(gl);
    gl?.getExtension("WEBGL_lose_context")?.loseContext();
  }
  return webglOffered;
}

let tab = "disk"; // on a phone, the pane on show: the flat drawing's or the 3D view's

/** What a 3D view's pane says under it: how to move the view, then `help`. */
const helpFor3d = (help) => [t("Drag to turn, scroll or pinch to zoom, right-drag or two fingers to pan."), help].filter(Boolean).join(" ");

/**
 * A 3D view's pane (view3d.js fills it): a bar of buttons, one for each of `choices` (the
 * surfaces it can be shown on: { name, title }), Reset view and Full screen (where the
 * browser offers it), the stage its canvas goes on, and under it `help`, what the view
 * shows and what a click does, and `about`, what the model on show is.
 */
export function pane3d({ help, choices = [], about = "" }) {
  return el("div", { class: "pane3d" },
    el("div", { class: "surfaces" },
      ...choices.map(({ name, title }) => el("button", { type: "button", "data-surface": name }, t(title))),
      el("button", { type: "button", class: "reset" }, t("Reset view")),
      el("button", { type: "button", class: "fullscreen", hidden: !document.fullscreenEnabled }, t("Full screen"))),
    el("div", { class: "stage" }),
    el("p", { class: "note help3d" }, helpFor3d(help)),
    el("p", { class: "note about3d", hidden: !about }, about));
}

/**
 * Keeps the room of the 3D view beside the flat drawing `flat` (just put in the page),
 * which comes once three.js has loaded: the two in one box, side by side or as tabs on a
 * phone (the flat one's named `flatTab`), the view's pane there at once, empty (`pane`
 * as pane3d takes it), so that nothing on the page moves when the view comes. `arrange`
 * is "wide" for one above the other (a connected sum's row of boards), "halves" for an
 * even share. The box kept from the last drawing (data-kept: play.js keeps it across
 * moves) takes `flat` in place of its last one, and the pane there the words of `help`.
 * Without WebGL the flat drawing goes alone and says so. Answers whether a view comes.
 */
export function roomFor3d(flat, { flatTab, arrange = null, ...pane }) {
  if (!offersWebgl()) return withoutWebgl(flat);
  let box = keptBox(flat);
  if (!box) {
    box = el("div", { class: "views", "data-tab": tab, "data-arrange": arrange, "data-kept": "" });
    const tabs = el("div", { class: "tabs", role: "tablist" },
      ...[["disk", flatTab], ["3d", "3D"]].map(([name, label]) => {
        const button = el("button", { type: "button", role: "tab", "data-tab": name }, t(label));
        button.addEventListener("click", () => {
          tab = name;
          box.dataset.tab = name;
        });
        return button;
      }));
    const empty = pane3d(pane);
    // Nothing to choose or reset before the view comes.
    for (const button of empty.querySelectorAll("button")) button.disabled = true;
    flat.replaceWith(box);
    box.append(tabs, el("div", { class: "pane-disk" }), empty);
  } else if (!box.contains(flat)) {
    flat.replaceWith(box);
  }
  if (!box.contains(flat)) box.querySelector(".pane-disk").replaceChildren(flat);
  const said = box.querySelector(".help3d");
  if (said.textContent !== helpFor3d(pane.help)) said.textContent = helpFor3d(pane.help);
  return true;
}

/** Says under the flat drawing `flat` why no 3D view goes beside it, taking away the
 * room kept for the last one. Answers false. */
export function without3d(flat, why) {
  const box = keptBox(flat);
  if (box?.contains(flat)) box.replaceWith(flat);
  else box?.remove();
  flat.after(el("p", { class: "note" }, why));
  return false;
}

/** Says under the flat drawing `flat` that 3D views need WebGL (see `without3d`). */
export const withoutWebgl = (flat) => without3d(flat, t("3D views need WebGL, which this browser does not offer."));

// The box of a 3D view kept beside `flat`'s place: around it, or left beside it by the
// last drawing.
const keptBox = (flat) => flat.closest(".views") ?? flat.parentElement.querySelector(":scope > .views");
