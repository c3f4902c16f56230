// Nim in 3D beside its flat drawing (a tab on a phone), loaded by games/nim.js once that
// is drawn, on view3d.js's stage: each heap a stack of counters standing on a board, the
// heaps in a row, each numbered in front of it with its size over it. The counters the
// last move took stand over their heap as ghosts, as the flat drawing leaves them dashed.
// Each counter takes its colour from its flat twin's marks (the hint's, a solve's, lit by
// the pointer here or there), and a click that is not a drag on a counter clicks its flat
// twin, which takes it and every counter above it. A heap of over CAP counters shows its
// lowest and its top HALF, with how many more lie between them. Labels carry data-x and
// data-y, their place on the canvas, for players and for WebDriver; a counter's label is
// an empty spot on its side that faces the eye.
import * as THREE from "./vendor/three.module.js";
import { el } from "./draw.js";
import { besideKept, createStage, disposeTree } from "./view3d.js";
import { t } from "./i18n.js";
import { TALL } from "./games/nim.js";

// A tall heap's counters drawn: its lowest HALF and its top HALF, a slot between them; at
// most GHOSTS of the counters the last move took, over their heap.
const { half: HALF, ghosts: GHOSTS } = TALL;
const CAP = 2 * HALF;
// Counters and the board in units of the layout: heaps SPACING apart.
const DISC = { radius: 0.4, height: 0.2, gap: 0.05, round: 0.06 };
const PITCH = DISC.height + DISC.gap;
const SPACING = 1.15;
const BOARD = { depth: 1.8, height: 0.12, margin: 0.45 };
// Seen from the front and a little above: the stacks stand up on the screen.
const EYE = [0.12, -1, 0.45];
// A solve's winning counters, paler than the hint's green (the flat drawing rings the
// hint's counters and dashes a solve's ring).
const COLOUR = { board: "#e2d3b0", counter: "#b9770e", solved: "#7ccf8e" };
// The flat counters' marks that their labels here take too.
const MARKS = ["hint", "solved", "lit"];

const kept = {}; // the view of the game on show, as besideKept keeps it

/**
 * Puts Nim in 3D in the room kept beside its flat drawing `flat` (games/nim.js) for the
 * game `state`. `heaps`, one a heap: `size`, `drawn` (as long as the flat drawing draws it:
 * the last move's heap as long as it was), `last` (the last move's heap) and `counters`,
 * the flat counters from the lowest.
 */
export function nim3d(flat, heaps, state) {
  besideKept(kept, `${state.id} ${heaps.length}`, flat, (context) => createView(context, heaps.length))?.update(flat, heaps);
}

/** The slot (from the board up) of each counter of a heap of `size` drawn, by counter;
 * undefined for those a tall heap leaves out. Answers the slots and how many they take. */
function slotsOf(size) {
  if (size <= CAP) return { slot: (k) => k, height: size };
  return { slot: (k) => (k < HALF ? k : k >= size - HALF ? k - size + CAP + 1 : undefined), height: CAP + 1 };
}

function createView(context, count) {
  let shown = null; // the flat drawing, the heaps and where their counters are drawn
  const view = createStage(context, {
    ready: () => Boolean(shown),
    placeLabels,
    click: (e) => {
      const node = counterAt(e);
      if (node && node.hasAttribute("data-move")) node.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    },
    hover: (e) => {
      const node = e && counterAt(e);
      if (node === hovered) return;
      hovered?.dispatchEvent(new MouseEvent("mouseleave"));
      node?.dispatchEvent(new MouseEvent("mouseenter"));
      hovered = node;
      view.canvas.style.cursor = node && node.hasAttribute("data-move") ? "pointer" : "";
    },
  });
  const { element, scene, labels, canvas, camera } = view;
  let hovered = null; // the flat counter the pointer is over in 3D
  const xOf = (h) => (h - (count - 1) / 2) * SPACING;
  const zOf = (slot) => BOARD.height / 2 + slot * PITCH + DISC.height / 2;

  const group = new THREE.Group();
  scene.add(group);
  const width = (count - 1) * SPACING + 2 * DISC.radius + 2 * BOARD.margin;
  const board = new THREE.Mesh(new THREE.BoxGeometry(width, BOARD.depth, BOARD.height), new THREE.MeshLambertMaterial({ color: COLOUR.board }));
  group.add(board);
  const discGeometry = counterGeometry();
  const discMaterial = new THREE.MeshLambertMaterial();
  const ghostMaterial = new THREE.MeshLambertMaterial({ color: COLOUR.counter, transparent: true, opacity: 0.22, depthWrite: false });
  let discs = null;
  let ghosts = null;
  let framed = 0; // the tallest heap the view was framed for, in slots

  const heapLabels = Array.from({ length: count }, (_, h) => el("span", { class: "heap3d", "data-heap": h + 1, hidden: "" }, String(h + 1)));
  const sizeLabels = Array.from({ length: count }, (_, h) => el("span", { class: "size3d", "data-heap": h + 1, hidden: "" }));
  const moreLabels = Array.from({ length: count }, (_, h) => el("span", { class: "more3d", "data-heap": h + 1, hidden: "" }));
  const takenLabels = Array.from({ length: count }, (_, h) => el("span", { class: "more3d taken", "data-heap": h + 1, hidden: "" }));
  let counterLabels = [];
  const places = new Map(); // a heap's label -> where in space it goes

  // The flat drawing's changes of class (the pointer over a counter) repaint the view,
  // once for each burst of them.
  const watch = new MutationObserver(() => {
    if (shown) repaint();
  });

  // A mesh of `total` instances of `material`'s discs in `group`, in place of `mesh`.
  function instances(mesh, material, total) {
    if (mesh && mesh.instanceMatrix.count >= total) return mesh;
    if (mesh) {
      group.remove(mesh);
      mesh.dispose();
    }
    const more = new THREE.InstancedMesh(discGeometry, material, Math.max(2 * total, 16));
    group.add(more);
    return more;
  }

  function update(flat, heaps) {
    if (!shown || shown.flat !== flat) {
      watch.disconnect();
      watch.observe(flat, { subtree: true, attributes: true, attributeFilter: ["class"] });
    }
    hovered = null;
    const columns = heaps.map(({ size, drawn }) => {
      const { slot, height } = slotsOf(size);
      const taken = drawn - size;
      return { slot, height, taken, ghosts: Math.min(taken, GHOSTS), top: height + Math.min(taken, GHOSTS) + (taken > GHOSTS ? 1 : 0) };
    });
    const counters = []; // by instance: { h, k, node, at }
    heaps.forEach(({ size, counters: nodes }, h) => {
      for (let k = 0; k < size; k++) {
        const s = columns[h].slot(k);
        if (s !== undefined) counters.push({ h, k, node: nodes[k], at: new THREE.Vector3(xOf(h), 0, zOf(s)) });
      }
    });
    discs = instances(discs, discMaterial, counters.length);
    const matrix = new THREE.Matrix4();
    counters.forEach(({ at }, i) => discs.setMatrixAt(i, matrix.makeTranslation(at)));
    discs.count = counters.length;
    discs.instanceMatrix.needsUpdate = true;
    const ghostAt = columns.flatMap(({ height, ghosts: n }, h) => Array.from({ length: n }, (_, j) => new THREE.Vector3(xOf(h), 0, zOf(height + j))));
    ghosts = instances(ghosts, ghostMaterial, ghostAt.length);
    ghostAt.forEach((at, i) => ghosts.setMatrixAt(i, matrix.makeTranslation(at)));
    ghosts.count = ghostAt.length;
    ghosts.instanceMatrix.needsUpdate = true;

    // Only what changed is written: each write restyles the label.
    heaps.forEach(({ size, last }, h) => {
      const { taken, height, ghosts: n } = columns[h];
      heapLabels[h].classList.toggle("last", last);
      if (last && taken > 0) heapLabels[h].dataset.taken = taken;
      else delete heapLabels[h].dataset.taken;
      if (sizeLabels[h].textContent !== String(size)) sizeLabels[h].textContent = String(size);
      moreLabels[h].textContent = size > CAP ? `+${size - CAP}` : "";
      takenLabels[h].textContent = taken > n ? `+${taken - n}` : "";
      places.set(sizeLabels[h], new THREE.Vector3(xOf(h), 0, zOf(columns[h].top) + 0.15));
      places.set(moreLabels[h], new THREE.Vector3(xOf(h), 0, zOf(HALF)));
      places.set(takenLabels[h], new THREE.Vector3(xOf(h), 0, zOf(height + n)));
      places.set(heapLabels[h], new THREE.Vector3(xOf(h), -BOARD.depth / 2 + 0.2, BOARD.height / 2));
    });
    counterLabels = counters.map(({ h, k }) => el("span", { class: "counter3d", "data-heap": h + 1, "data-counter": k, hidden: "" }));
    labels.replaceChildren(...heapLabels, ...sizeLabels, ...moreLabels, ...takenLabels, ...counterLabels);
    shown = { flat, heaps, counters };

    const tallest = Math.max(1, ...columns.map((c) => c.top));
    if (tallest > framed) {
      framed = tallest;
      const box = new THREE.Box3(
        new THREE.Vector3(-width / 2, -BOARD.depth / 2, -BOARD.height / 2),
        new THREE.Vector3(width / 2, BOARD.depth / 2, zOf(tallest) + 0.4));
      view.frame(box.getBoundingSphere(new THREE.Sphere()), EYE, box);
    }
    canvas.setAttribute("aria-label", t("The heaps in 3D (counters: {sizes})", { sizes: heaps.map((heap) => heap.size).join(", ") }));
    repaint();
  }

  // The flat counter whose disc a pointer event is over, or null.
  const raycaster = new THREE.Raycaster();
  function counterAt(event) {
    raycaster.ray.copy(view.rayAt(event));
    const [hit] = raycaster.intersectObject(discs, false);
    return hit ? shown.counters[hit.instanceId].node : null;
  }

  // A counter's colour as its flat twin's style has it: its fill (lit by the pointer), the
  // stroke of a hint's mark, or a solve's paler; its label takes the twin's marks and move,
  // and says the colour (data-colour, for tests).
  const colour = new THREE.Color();
  function repaint() {
    shown.counters.forEach(({ node }, i) => {
      const style = getComputedStyle(node);
      const mark = node.classList.contains("lit") ? null : ["hint", "solved"].find((name) => node.classList.contains(name));
      const paint = mark ? style.stroke : style.fill;
      discs.setColorAt(i, colour.setStyle(mark === "solved" ? COLOUR.solved : paint.startsWith("rgb") ? paint : COLOUR.counter));
      const label = counterLabels[i];
      if (label.dataset.colour !== colour.getHexString()) label.dataset.colour = colour.getHexString();
      for (const name of MARKS) label.classList.toggle(name, node.classList.contains(name));
      label.toggleAttribute("data-move", node.hasAttribute("data-move"));
      if (node.hasAttribute("data-move")) label.dataset.move = node.dataset.move;
    });
    if (discs.instanceColor) discs.instanceColor.needsUpdate = true;
    view.requestRender();
  }

  // Moves each label to its place on the canvas, hiding those off it. A counter's goes on
  // its side facing the eye, hidden where another heap or the board stands in the way.
  function placeLabels() {
    const { width: w, height: h } = view;
    const eye = camera.position;
    const at = new THREE.Vector3();
    const put = (label, p) => {
      at.copy(p).project(camera);
      const x = ((at.x + 1) / 2) * w;
      const y = ((1 - at.y) / 2) * h;
      const visible = label.textContent !== "" || label.classList.contains("counter3d");
      const shows = visible && at.z < 1 && x >= 0 && y >= 0 && x <= w && y <= h;
      if (label.hidden !== !shows) label.hidden = !shows;
      if (!shows) return;
      label.style.transform = `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px) translate(-50%, -50%)`;
      label.dataset.x = Math.round(x);
      label.dataset.y = Math.round(y);
    };
    for (const [label, p] of places) put(label, p);
    const ray = new THREE.Ray();
    const boardBox = new THREE.Box3().setFromObject(board);
    const crossing = new THREE.Vector3();
    shown.counters.forEach(({ h, at: centre }, i) => {
      const label = counterLabels[i];
      const towards = new THREE.Vector3(eye.x - centre.x, eye.y - centre.y, 0);
      if (towards.length() <= DISC.radius) {
        label.hidden = true;
        return;
      }
      const spot = centre.clone().addScaledVector(towards.normalize(), DISC.radius * 0.97);
      ray.origin.copy(eye);
      ray.direction.copy(spot).sub(eye);
      const distance = ray.direction.length();
      ray.direction.divideScalar(distance);
      const blocked = (ray.intersectBox(boardBox, crossing) && crossing.distanceTo(eye) < distance - 1e-6)
        || shown.heaps.some((_, other) => other !== h && throughColumn(ray, distance, xOf(other), zOf(0) + PITCH * (columnTop(other) - 0.5)));
      put(label, spot);
      if (blocked) label.hidden = true;
    });
  }

  // The top of heap `h`'s drawn counters, in slots.
  function columnTop(h) {
    return slotsOf(shown.heaps[h].size).height;
  }

  function dispose() {
    watch.disconnect();
    disposeTree(group);
    view.dispose();
  }

  return { element, update, dispose };
}

// Whether `ray` meets, nearer than `distance`, the upright cylinder of the discs' radius
// standing on the board at `x` up to `top`.
function throughColumn(ray, distance, x, top) {
  const [ox, oy, dx, dy] = [ray.origin.x - x, ray.origin.y, ray.direction.x, ray.direction.y];
  const a = dx * dx + dy * dy;
  if (a < 1e-12) return false;
  const b = ox * dx + oy * dy;
  const c = ox * ox + oy * oy - DISC.radius * DISC.radius;
  const root = b * b - a * c;
  if (root < 0) return false;
  for (const s of [(-b - Math.sqrt(root)) / a, (-b + Math.sqrt(root)) / a]) {
    const z = ray.origin.z + s * ray.direction.z;
    if (s > 0 && s < distance && z >= 0 && z <= top) return true;
  }
  return false;
}

// A counter: a disc upright on the board whose rounded rim, shaded darker where it turns,
// sets it apart from the counters on and under it.
function counterGeometry() {
  const { radius: r, height, round: e } = DISC;
  const profile = [new THREE.Vector2(0, -height / 2)];
  for (const [cy, from] of [[-height / 2 + e, -Math.PI / 2], [height / 2 - e, 0]]) {
    for (let i = 0; i <= 4; i++) {
      const angle = from + (i / 4) * (Math.PI / 2);
      profile.push(new THREE.Vector2(r - e + e * Math.cos(angle), cy + e * Math.sin(angle)));
    }
  }
  profile.push(new THREE.Vector2(0, height / 2));
  return new THREE.LatheGeometry(profile, 32).rotateX(Math.PI / 2);
}
