// The manifold game's surfaces in 3D beside its cards (as a tab on a phone), loaded by
// games/manifold.js once the cards are drawn. One canvas shows every surface of the
// position, in rows, each in the form its card draws (shapes3d.js's manifoldSurface: the
// sphere, a torus per handle, a cross-cap per crosscap, joined by tubes), so that a dozen
// surfaces cost one WebGL context. The curve of the move pointed at is drawn on the
// surface it cuts, the surface in that move's form; the surfaces the last move left are
// lit, as their cards are. Each surface has a label over it whose data-x and data-y give
// its place on the canvas, and whose data- attributes say what is drawn there.
import * as THREE from "./vendor/three.module.js";
import { el } from "./draw.js";
import { t } from "./i18n.js";
import { manifoldSurface, rowLength } from "./shapes3d.js";
import { besideKept, createStage, disposeTree } from "./view3d.js";

// A surface's colour: as its card is marked (the last move's, the hint's, a sphere out of
// play), else the board's empty colour a shade darker, for the shading to show.
const COLOUR = { last: "#f0e442", hint: "#8fd6bd", dead: "#c4c4c4", plain: "#e3dccb", cut: "#b3002d" };
// Between surfaces in a row, from one row to the next (a cross-cap stands 2.4 high), and
// how high above a surface's middle its label goes.
const GAP = 1.2;
const ROW = 3.4;
const LABEL_HEIGHT = 1.6;
// Seen from the front and a little above: tori show their holes, cross-caps their seams.
const EYE = [0.05, -1, 0.5];
const CURVE_RADIUS = 0.07;

const kept = {}; // the view of the game on show, as besideKept keeps it

/**
 * Puts the 3D view in the room kept beside `cards` (games/manifold.js), showing `surfaces`
 * in the cards' order, each `{ name, genus, orientable, kind, form, last, hint }` (`kind`
 * in words, `form` manifold.js's, its curve named by `move`), for the game `key`.
 */
export function manifold3d(cards, surfaces, key) {
  besideKept(kept, key, cards, createView)?.update(surfaces);
}

/** Draws the surface of card `index` (of `cards`) in `form`, its curve the one `move` cuts. */
export function pointAt(cards, index, form, move) {
  if (kept.view?.element.parentElement?.contains(cards)) kept.view.point(index, form, move);
}

function createView(context) {
  let shown = []; // per surface: what update() was given, its group in space and its label
  let layout = null; // the names of the surfaces laid out, space-separated
  const view = createStage(context, {
    ready: () => shown.length > 0,
    placeLabels,
  });
  const { element, labels, canvas, scene, camera } = view;
  element.classList.add("manifold3d");
  const world = new THREE.Group();
  scene.add(world);
  const shapes = new Map(); // a form's key -> its geometry and curves

  function update(surfaces) {
    const names = surfaces.map((s) => s.name).join(" ");
    for (const entry of shown) remove(entry);
    const slots = place(surfaces);
    shown = surfaces.map((surface, i) => ({
      surface,
      slot: slots[i],
      group: null,
      label: el("span", { class: "surface3d", "data-name": surface.name, "data-genus": surface.genus, "data-orientable": String(surface.orientable), hidden: "" }, surface.name),
    }));
    labels.replaceChildren(...shown.map((entry) => entry.label));
    shown.forEach((entry, i) => draw(i, entry.surface.form, entry.surface.move));
    if (names !== layout) {
      layout = names;
      const box = new THREE.Box3();
      for (const { slot } of shown) {
        box.expandByPoint(new THREE.Vector3(slot.x - slot.width / 2, -1.5, slot.z - 1.3));
        box.expandByPoint(new THREE.Vector3(slot.x + slot.width / 2, 1.5, slot.z + LABEL_HEIGHT));
      }
      view.frame(box.getBoundingSphere(new THREE.Sphere()), EYE, box);
    }
    describe();
  }

  // Draws surface `i` in `form`, with the curve `move` cuts if the form has one.
  function draw(i, form, move) {
    const entry = shown[i];
    if (entry.group) remove(entry);
    const { surface, slot, label } = entry;
    const key = JSON.stringify(form);
    if (!shapes.has(key)) shapes.set(key, manifoldSurface(form));
    const { parts, curves } = shapes.get(key);
    const colour = surface.last ? COLOUR.last : surface.hint ? COLOUR.hint : surface.genus === 0 ? COLOUR.dead : COLOUR.plain;
    const group = new THREE.Group();
    group.add(new THREE.Mesh(merged(parts), new THREE.MeshLambertMaterial({ color: colour, side: THREE.DoubleSide })));
    for (const points of curves) {
      const curve = new THREE.CatmullRomCurve3(points.map((p) => new THREE.Vector3(...p)), true, "centripetal");
      group.add(new THREE.Mesh(
        new THREE.TubeGeometry(curve, 2 * points.length, CURVE_RADIUS, 8, true),
        new THREE.MeshBasicMaterial({ color: COLOUR.cut })));
    }
    group.position.set(slot.x, 0, slot.z);
    world.add(group);
    entry.group = group;
    entry.move = form.cut ? move : null;
    label.dataset.handles = form.handles;
    label.dataset.crosscaps = form.crosscaps;
    label.toggleAttribute("data-last", Boolean(surface.last));
    label.toggleAttribute("data-hint", Boolean(surface.hint));
    if (form.cut) label.dataset.cut = Object.keys(form.cut)[0];
    else delete label.dataset.cut;
    view.requestRender();
  }

  function point(i, form, move) {
    if (!shown[i]) return;
    draw(i, form, move);
    describe();
  }

  // What the canvas shows, for screen readers: each surface, and the curve drawn.
  function describe() {
    const said = shown.map(({ surface }) => `${surface.name} (${surface.kind})`).join(", ");
    const cuts = shown.filter((entry) => entry.move)
      .map((entry) => t("the curve of {move} drawn on {surface}", { move: entry.move, surface: entry.surface.name }));
    canvas.setAttribute("aria-label", [t("The surfaces in 3D: {surfaces}", { surfaces: said }), ...cuts].join("; "));
    const moves = cuts.length ? shown.filter((entry) => entry.move).map((entry) => entry.move).join(" ") : null;
    if (moves) element.dataset.curves = moves;
    else delete element.dataset.curves;
  }

  function remove(entry) {
    world.remove(entry.group);
    disposeTree(entry.group);
    entry.group = null;
  }

  // Moves each label over its surface on the canvas; hides those off it.
  function placeLabels() {
    const { width, height } = view;
    const at = new THREE.Vector3();
    for (const { slot, label } of shown) {
      at.set(slot.x, 0, slot.z + LABEL_HEIGHT).project(camera);
      const x = ((at.x + 1) / 2) * width;
      const y = ((1 - at.y) / 2) * height;
      const visible = at.z < 1 && x >= 0 && y >= 0 && x <= width && y <= height;
      if (label.hidden !== !visible) label.hidden = !visible;
      if (!visible) continue;
      label.style.transform = `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px) translate(-50%, -50%)`;
      label.dataset.x = Math.round(x);
      label.dataset.y = Math.round(y);
    }
  }

  function dispose() {
    for (const entry of shown) remove(entry);
    view.dispose();
  }

  return { element, update, point, dispose };
}

// Where each surface goes: its slot (the middle, and the width of its row of features as
// its card draws it at rest, all crosscaps, which no form of it is wider than), in rows
// along x one below the other, as many as make the whole about as wide as high (the
// canvas is square).
function place(surfaces) {
  const widths = surfaces.map(({ genus, orientable }) => rowLength(genus, orientable ? 0 : genus));
  const total = widths.reduce((sum, w) => sum + w + GAP, -GAP);
  const rows = Math.max(1, Math.round(Math.sqrt(total / ROW)));
  const room = Math.max(...widths, total / rows);
  const lines = [[]];
  let used = 0;
  widths.forEach((width, i) => {
    if (lines[lines.length - 1].length && used + GAP + width > room + 1e-9) {
      lines.push([]);
      used = 0;
    }
    used += (lines[lines.length - 1].length ? GAP : 0) + width;
    lines[lines.length - 1].push(i);
  });
  const slots = [];
  lines.forEach((line, r) => {
    let x = -line.reduce((sum, i) => sum + widths[i] + GAP, -GAP) / 2;
    for (const i of line) {
      slots[i] = { x: x + widths[i] / 2, z: ((lines.length - 1) / 2 - r) * ROW, width: widths[i] };
      x += widths[i] + GAP;
    }
  });
  return slots;
}

// One geometry of a surface's parts (manifoldSurface's grids), its normals worked out.
function merged(parts) {
  const positions = new Float32Array(parts.reduce((sum, p) => sum + p.positions.length, 0));
  const index = [];
  let offset = 0;
  for (const part of parts) {
    positions.set(part.positions, offset);
    for (const v of part.index) index.push(v + offset / 3);
    offset += part.positions.length;
  }
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute("position", new THREE.BufferAttribute(positions, 3));
  geometry.setIndex(index);
  geometry.computeVertexNormals();
  return geometry;
}
