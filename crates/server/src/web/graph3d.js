// A graph in 3D beside its flat drawing (Edge-Nim, the sandpile game), on view3d.js's
// stage: vertices as spheres, edges as rods, laid out in space by stress majorization
// (seeded from the flat drawing, so the same graph stands the same way each time): the
// tetrahedron as a tetrahedron, a cube as a cube; turned to face the eye the way that
// keeps its labels farthest apart. The view mirrors the flat drawing: each
// sphere and rod takes its colour from its flat twin's style (a seat's colour, the last
// move, a hint, the vertex picked, a cascade's step) and follows its class changes as they
// come; a click that is not a drag on a sphere clicks its flat twin, which does what it
// does there. Labels (vertex texts, an edge's count and name) carry data-x and data-y,
// their place on the canvas, for players and for WebDriver.
import * as THREE from "./vendor/three.module.js";
import { el, seeded } from "./draw.js";
import { besideKept, createStage, disposeTree, onceAFrame } from "./view3d.js";
import { t } from "./i18n.js";

// Spheres and rods in units of the layout, whose edges are about 1 long.
const RADIUS = 0.13;
const ROD = 0.022;
const CHIP = { radius: 0.08, height: 0.03, gap: 0.012 };
const HEAD = { radius: RADIUS * 0.5, height: RADIUS * 1.2 };
// Seen from above and aside: a graph laid out nearly flat shows its plane, and the stacks
// of chips still stand up on the screen.
const EYE = [0.3, -0.8, 1];
// An edge shorter than this on the canvas (CSS pixels) shows its count without its name,
// which would hide its neighbours' labels (zooming in brings it back).
const NAME_ROOM = 60;
// The flat drawing's marks that its labels here take too (lit the same way).
const MARKS = ["last", "hint", "selected", "reached"];
// Above this many edges their labels stay at the middles of their edges: choosing spots
// clear of the others, on every frame, would cost too much.
const SPREAD_LABELS = 120;
// The spots along its edge an edge's label may take, the middle first.
const SPOTS = [0.5, 0.4, 0.6, 0.32, 0.68, 0.25, 0.75];
// Labels' sizes as view3d.css draws them (CSS pixels), from their texts: a character of a
// count and of a name, an edge's count on its disc, and the heights of their lines.
const TEXT = { char: 7.7, nameChar: 6.1, disc: 18, discPadding: 10, line: 11, nameLine: 12, discLine: 19 };

// Half the size of a vertex's label: its text, with its name under it where that differs.
function vertexLabelHalf(label) {
  const { text = "", vertex: name = "" } = label.dataset;
  const named = text !== name;
  const width = Math.max(TEXT.char * text.length, named ? TEXT.nameChar * name.length : 0);
  return [width / 2 + 1, (TEXT.line + (named ? TEXT.nameLine : 0)) / 2 + 1];
}

// Half the size of an edge's label: its count on a disc, and its name beside where `named`.
function edgeLabelHalf(label, named) {
  const { text = "", edge: name = "" } = label.dataset;
  const width = Math.max(TEXT.disc, TEXT.char * text.length + TEXT.discPadding) + (named ? 2 + TEXT.nameChar * name.length : 0);
  return [width / 2 + 1, TEXT.discLine / 2 + 1];
}

const current = {}; // the view of the game on show, as besideKept keeps it

/**
 * Puts a 3D view of a graph in the room kept beside its flat drawing `flat` (graph.js's
 * graphIn3d). `graph`: `pos` (the flat drawing's vertex positions), `edges` ([u, v]
 * pairs), `directed`, `edgeNodes` (the flat edges), `vertices` ({ node, name, text, chips
 * }: the flat disc, its name, the text of its label and how many chips to stack on it)
 * and `edgeLabels` ({ name, text } an edge, or null).
 */
export function graph3d(flat, graph, state) {
  const key = `${state.id} ${JSON.stringify([graph.vertices.length, graph.edges, graph.directed])}`;
  besideKept(current, key, flat, (context) => createView(context, graph))?.update(flat, graph);
}

function createView(context, { pos, edges, directed, vertices, edgeLabels: edgesLabelled }) {
  const layout = turnedToTheEye(layout3d(pos, edges), Boolean(edgesLabelled));
  let shown = null; // the flat drawing, the model and the labels on show
  const view = createStage(context, {
    ready: () => Boolean(shown),
    placeLabels,
    settle: showArrows,
    click: (e) => {
      const v = vertexAt(e);
      if (v !== null && shown.vertices[v].node.hasAttribute("tabindex")) {
        shown.vertices[v].node.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      }
    },
    hover: (e) => {
      const v = e && vertexAt(e);
      view.canvas.style.cursor = v !== null && shown.vertices[v].node.hasAttribute("tabindex") ? "pointer" : "";
    },
  });
  const { element, scene, labels, canvas } = view;
  canvas.setAttribute("aria-label", t("The graph in 3D (vertices: {vertices}, edges: {edges})", { vertices: pos.length, edges: edges.length }));

  const n = pos.length;
  const sphere = new THREE.SphereGeometry(RADIUS, 24, 16);
  const spheres = new THREE.InstancedMesh(sphere, new THREE.MeshLambertMaterial(), n);
  // A ring round a vertex (the last move, a hint, the vertex picked): a larger sphere's
  // inside, in the ring's colour, seen round the sphere's outline.
  const halos = new THREE.InstancedMesh(sphere, new THREE.MeshBasicMaterial({ side: THREE.BackSide }), n);
  const rods = new THREE.InstancedMesh(new THREE.CylinderGeometry(1, 1, 1, 10), new THREE.MeshLambertMaterial(), Math.max(edges.length, 1));
  const heads = directed ? new THREE.InstancedMesh(new THREE.ConeGeometry(HEAD.radius, HEAD.height, 12), new THREE.MeshLambertMaterial(), Math.max(edges.length, 1)) : null;
  const chipGeometry = new THREE.CylinderGeometry(CHIP.radius, CHIP.radius, CHIP.height, 16).rotateX(Math.PI / 2);
  const chipMaterial = new THREE.MeshLambertMaterial({ color: 0xd9a441 });
  let chips = null;
  const matrix = new THREE.Matrix4();
  const up = new THREE.Vector3(0, 1, 0);
  layout.vertices.forEach((p, v) => {
    spheres.setMatrixAt(v, matrix.makeTranslation(p));
    halos.setMatrixAt(v, matrix.makeScale(0, 0, 0));
  });
  // Each edge from end to end (parallel edges side by side), a rod `width` times as
  // thick as the thinnest.
  const ends = layout.edges;
  const rodAt = ends.map(([a, b]) => {
    const along = b.clone().sub(a);
    const turn = new THREE.Quaternion().setFromUnitVectors(up, along.clone().normalize());
    const tip = b.clone().addScaledVector(along, -(RADIUS * 1.6) / (along.length() || 1));
    return { middle: a.clone().lerp(b, 0.5), turn, length: along.length(), tip };
  });
  // The rods as the labels' sight lines meet them.
  const sightRods = ends.map(([a, b], e) => ({ a, b, middle: a.clone().lerp(b, 0.5), half: a.distanceTo(b) / 2, radius: ROD, u: edges[e][0], v: edges[e][1] }));
  const placeRod = (e, width) => {
    const { middle, turn, length } = rodAt[e];
    rods.setMatrixAt(e, matrix.compose(middle, turn, new THREE.Vector3(ROD * width, length, ROD * width)));
    sightRods[e].radius = ROD * width;
  };
  rodAt.forEach(({ tip, turn, length }, e) => {
    placeRod(e, 1);
    if (heads) heads.setMatrixAt(e, matrix.compose(tip, turn, new THREE.Vector3(1, length ? 1 : 0, 1)));
  });
  // A graph without edges draws no rod (the meshes hold one at least).
  rods.count = edges.length;
  if (heads) heads.count = edges.length;
  const group = new THREE.Group();
  group.add(spheres, halos, rods);
  if (heads) group.add(heads);
  scene.add(group);
  // Round the layout's centre, where it turns, as near as it can be seen whole.
  view.frame(new THREE.Sphere(new THREE.Vector3(), framedRadius(layout.vertices, view.camera.fov, vertices.some((v) => v.chips !== undefined))), EYE);

  const vertexLabels = layout.vertices.map(() => el("span", { class: "vertex3d", hidden: "" }));
  const edgeLabels = ends.map(() => el("span", { class: "edge3d", hidden: "" }));
  labels.replaceChildren(...edgeLabels, ...vertexLabels);

  // The flat drawing's changes of class (a vertex picked, a cascade's steps) and of focus
  // repaint the view, at most once a frame.
  const repaintSoon = onceAFrame(() => {
    if (shown) repaint();
  });
  const watch = new MutationObserver(repaintSoon);

  function update(flat, graph) {
    if (!shown || shown.flat !== flat) {
      watch.disconnect();
      watch.observe(flat, { subtree: true, attributes: true, attributeFilter: ["class"] });
      flat.addEventListener("focusin", repaintSoon);
      flat.addEventListener("focusout", repaintSoon);
    }
    shown = { flat, vertices: graph.vertices, edgeNodes: graph.edgeNodes };
    // Only what changed is written: each write restyles the label.
    graph.vertices.forEach(({ name, text }, v) => {
      const label = vertexLabels[v];
      if (label.dataset.vertex !== name) label.dataset.vertex = name;
      if (label.dataset.text !== text) {
        label.replaceChildren(el("span", { class: "count" }, text));
        if (text !== name) label.append(el("span", { class: "vname" }, name));
        label.dataset.text = text;
      }
    });
    edgeLabels.forEach((label, e) => {
      const edge = graph.edgeLabels && graph.edgeLabels[e];
      label.classList.toggle("unused", !edge);
      if (!edge || (label.dataset.edge === edge.name && label.dataset.text === edge.text)) return;
      label.replaceChildren(el("span", { class: "count" }, edge.text), el("span", { class: "ename" }, edge.name));
      label.dataset.edge = edge.name;
      label.dataset.text = edge.text;
    });
    stackChips(graph.vertices.map((v) => v.chips || 0));
    repaint();
  }

  // Each vertex's chips, a stack on top of its sphere.
  function stackChips(counts) {
    const total = counts.reduce((a, b) => a + b, 0);
    if (!chips || chips.instanceMatrix.count < total) {
      if (chips) {
        group.remove(chips);
        chips.dispose();
      }
      chips = new THREE.InstancedMesh(chipGeometry, chipMaterial, Math.max(2 * total, 16));
      group.add(chips);
    }
    let i = 0;
    counts.forEach((count, v) => {
      for (let k = 0; k < count; k++) {
        const at = layout.vertices[v].clone();
        at.z += RADIUS + CHIP.gap + k * (CHIP.height + CHIP.gap) + CHIP.height / 2;
        chips.setMatrixAt(i++, matrix.makeTranslation(at));
      }
    });
    chips.count = total;
    chips.instanceMatrix.needsUpdate = true;
  }

  // A label takes its flat twin's marks, and a vertex's its move (a click plays it).
  function mark(label, node) {
    for (const name of MARKS) label.classList.toggle(name, node.classList.contains(name));
    const move = node.getAttribute("data-move");
    if (move === null) delete label.dataset.move;
    else if (label.dataset.move !== move) label.dataset.move = move;
  }

  // Colours as the flat drawing's styles have them: a vertex's fill, and its stroke as a
  // ring where the stroke is wide (the default outline is thin); an edge's stroke, the
  // rod thicker where the stroke is.
  const colour = new THREE.Color();
  function repaint() {
    shown.vertices.forEach(({ node }, v) => {
      mark(vertexLabels[v], node);
      const style = getComputedStyle(node);
      spheres.setColorAt(v, colour.setStyle(style.fill.startsWith("rgb") ? style.fill : "#ddd"));
      const ring = parseFloat(style.strokeWidth) >= 3;
      halos.setColorAt(v, colour.setStyle(style.stroke.startsWith("rgb") ? style.stroke : "#000"));
      const size = ring ? 1.45 : 0;
      halos.setMatrixAt(v, matrix.makeScale(size, size, size).setPosition(layout.vertices[v]));
    });
    shown.edgeNodes.forEach((node, e) => {
      mark(edgeLabels[e], node);
      const style = getComputedStyle(node);
      rods.setColorAt(e, colour.setStyle(style.stroke.startsWith("rgb") ? style.stroke : "#666"));
      heads?.setColorAt(e, colour);
      placeRod(e, Math.max(1, parseFloat(style.strokeWidth) / 2));
    });
    for (const mesh of [spheres, halos, rods, heads]) {
      if (!mesh) continue;
      mesh.instanceMatrix.needsUpdate = true;
      if (mesh.instanceColor) mesh.instanceColor.needsUpdate = true;
    }
    view.requestRender();
  }

  // The vertex whose sphere a pointer event is over, or null.
  const raycaster = new THREE.Raycaster();
  function vertexAt(event) {
    raycaster.ray.copy(view.rayAt(event));
    const hit = raycaster.intersectObject(spheres, false)[0];
    return hit ? hit.instanceId : null;
  }

  // Where a point of the scene is on the canvas (CSS pixels), and its depth.
  function screen(p) {
    const at = p.clone().project(view.camera);
    return [((at.x + 1) / 2) * view.width, ((1 - at.y) / 2) * view.height, at.z];
  }

  // The arrowheads as drawn, each from the middle of its base to its point on the canvas,
  // in the canvas's data-arrows for tests, written once the view rests.
  function showArrows() {
    if (!heads) return;
    const drawn = Array.from({ length: heads.count }, (_, e) => {
      heads.getMatrixAt(e, matrix);
      return [-1, 1].map((end) => screen(new THREE.Vector3(0, (end * HEAD.height) / 2, 0).applyMatrix4(matrix)).slice(0, 2).map(Math.round));
    });
    canvas.dataset.arrows = JSON.stringify(drawn);
  }

  // Moves each label to its sphere's centre or along its edge on the canvas, hiding those
  // behind a sphere or a rod nearer the eye or off the canvas. An edge's label goes at its
  // middle, or (on smaller graphs) at the first spot along it where it keeps clear of the
  // labels placed before it, with its name or else without.
  function placeLabels() {
    const { width, height, camera } = view;
    const eye = camera.position;
    const put = (label, p, own) => {
      const [x, y, z] = screen(p);
      const visible = !label.classList.contains("unused") && z < 1 && x >= 0 && y >= 0 && x <= width && y <= height && !hidden(eye, p, own, layout.vertices, sightRods);
      if (label.hidden !== !visible) label.hidden = !visible;
      if (!visible) return null;
      label.style.transform = `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px) translate(-50%, -50%)`;
      label.dataset.x = Math.round(x);
      label.dataset.y = Math.round(y);
      return [x, y];
    };
    const spread = ends.length <= SPREAD_LABELS;
    // The boxes of the labels placed so far (where edges' labels are spread): their
    // middles and half sizes on the canvas.
    const boxes = [];
    const overlap = ([x, y], [w, h]) => boxes.reduce((sum, [bx, by, bw, bh]) =>
      sum + Math.max(0, Math.min(x + w, bx + bw) - Math.max(x - w, bx - bw)) * Math.max(0, Math.min(y + h, by + bh) - Math.max(y - h, by - bh)), 0);
    layout.vertices.forEach((p, v) => {
      const at = put(vertexLabels[v], p, { vertex: v });
      if (at && spread) boxes.push([...at, ...vertexLabelHalf(vertexLabels[v])]);
    });
    ends.forEach(([a, b], e) => {
      const label = edgeLabels[e];
      const [ax, ay] = screen(a);
      const [bx, by] = screen(b);
      let choice = { spot: 0.5, named: Math.hypot(bx - ax, by - ay) >= NAME_ROOM };
      // The first spot along the edge where the label, with its name or else without,
      // covers none placed before it, or else the one where it covers least.
      if (spread && !label.classList.contains("unused")) {
        let least = Infinity;
        for (const named of choice.named ? [true, false] : [false]) {
          for (const spot of SPOTS) {
            const covered = overlap(screen(a.clone().lerp(b, spot)), edgeLabelHalf(label, named));
            if (covered < least) [least, choice] = [covered, { spot, named }];
            if (!least) break;
          }
          if (!least) break;
        }
      }
      const at = put(label, a.clone().lerp(b, choice.spot), { edge: e });
      if (!at) return;
      label.classList.toggle("short", !choice.named);
      if (spread) boxes.push([...at, ...edgeLabelHalf(label, choice.named)]);
    });
  }

  function dispose() {
    watch.disconnect();
    disposeTree(group);
    view.dispose();
  }

  return { element, update, dispose };
}

// The turns turnedToTheEye tries, each a direction facing the eye at so many rolls, and
// how many pairs of points it measures in all (a graph of 300 vertices tries 5
// directions, in about 10 ms).
const FACINGS = 64;
const ROLLS = 8;
const PAIRS_MEASURED = 2e6;

// The axes of a camera at EYE looking at the centre, as three.js's lookAt makes them with
// the camera's up along z: to the right and up on the screen, and back towards the eye.
function eyeAxes() {
  const back = new THREE.Vector3(...EYE).normalize();
  const right = new THREE.Vector3(0, 0, 1).cross(back).normalize();
  return { right, up: back.clone().cross(right), back };
}

/**
 * The radius of the sphere round the centre that the stage's `frame` should be given for
 * a camera of `fov` at EYE to see each of `vertices`' spheres whole, with its ring, and
 * where `chipped` room for chips over them: framed, a sphere of that radius is seen from
 * as far as it takes. A sphere round the whole layout was seen from farther, leaving a
 * graph that is flatter across the line of sight than along it small on the screen.
 */
function framedRadius(vertices, fov, chipped) {
  const { right, up, back } = eyeAxes();
  const half = THREE.MathUtils.degToRad(fov / 2);
  const room = RADIUS * (chipped ? 2 : 1.5);
  const far = Math.max(0, ...vertices.map((p) => p.dot(back) + (Math.max(Math.abs(p.dot(right)), Math.abs(p.dot(up))) + room) / Math.tan(half)));
  return far * Math.sin(half);
}

/**
 * Turns `layout` (in place, and answers it) so that its labelled points, the vertices and
 * where `withEdges` the edges' middles, lie as far apart as they can on the screen when
 * seen from EYE (with the camera's up along z): of the directions spread evenly over a
 * half sphere (the other half sees the same points mirrored), each at ROLLS rolls, the
 * turn whose closest two points are farthest apart, measured as labels twice as wide as
 * tall are. No randomness: the same graph always turns the same way.
 */
function turnedToTheEye(layout, withEdges) {
  const points = withEdges ? [...layout.vertices, ...layout.edges.map(([a, b]) => a.clone().lerp(b, 0.5))] : layout.vertices;
  const m = points.length;
  const pairs = (m * (m - 1)) / 2;
  if (!pairs) return layout;
  const facings = Math.max(1, Math.min(FACINGS, Math.floor(PAIRS_MEASURED / (pairs * ROLLS))));
  const across = new Float64Array(m);
  const upward = new Float64Array(m);
  const x = new Float64Array(m);
  const y = new Float64Array(m);
  const best = { apart: -1, right: null, up: null, toEye: null };
  const toEye = new THREE.Vector3();
  const side = new THREE.Vector3();
  const lift = new THREE.Vector3();
  const golden = Math.PI * (3 - Math.sqrt(5));
  for (let i = 0; i < facings; i++) {
    const z = 1 - (i + 0.5) / facings;
    const r = Math.sqrt(1 - z * z);
    toEye.set(r * Math.cos(i * golden), r * Math.sin(i * golden), z);
    side.set(0, 0, 1).cross(toEye);
    if (side.lengthSq() < 1e-9) side.set(1, 0, 0);
    side.normalize();
    lift.crossVectors(toEye, side);
    points.forEach((p, k) => {
      across[k] = p.dot(side);
      upward[k] = p.dot(lift);
    });
    for (let roll = 0; roll < ROLLS; roll++) {
      const angle = (roll * Math.PI) / ROLLS;
      const [c, s] = [Math.cos(angle), Math.sin(angle)];
      for (let k = 0; k < m; k++) {
        x[k] = c * across[k] + s * upward[k];
        y[k] = c * upward[k] - s * across[k];
      }
      let apart = Infinity;
      for (let k = 0; k < m && apart > best.apart; k++) {
        for (let l = k + 1; l < m; l++) {
          const gap = Math.max(Math.abs(x[k] - x[l]) / 2, Math.abs(y[k] - y[l]));
          if (gap < apart) {
            apart = gap;
            if (apart <= best.apart) break;
          }
        }
      }
      if (apart > best.apart) {
        const right = side.clone().multiplyScalar(c).addScaledVector(lift, s);
        Object.assign(best, { apart, right, up: toEye.clone().cross(right), toEye: toEye.clone() });
      }
    }
  }
  const { right, up, back } = eyeAxes();
  const turn = new THREE.Matrix4().makeBasis(right, up, back).multiply(new THREE.Matrix4().makeBasis(best.right, best.up, best.toEye).transpose());
  for (const p of [...layout.vertices, ...layout.edges.flat()]) p.applyMatrix4(turn);
  return layout;
}

/**
 * Whether `p`, a label's point, is hidden from `eye` by a sphere (of radius RADIUS round
 * one of `centres`) or a rod (`rods`: { a, b, middle, half, radius, u, v }: its ends, its
 * middle, half its length, its radius and its vertices) nearer the eye, other than the
 * label's own (`own`): a vertex's label (`own.vertex`) is not hidden by its sphere or the
 * rods that meet at its centre, an edge's (`own.edge`) by the rod whose axis it is on.
 * Plain numbers: it runs for every label on every frame.
 */
export function hidden(eye, p, own, centres, rods) {
  const clamp01 = (value) => Math.min(1, Math.max(0, value));
  const [ex, ey, ez] = [eye.x, eye.y, eye.z];
  const [dx, dy, dz] = [p.x - ex, p.y - ey, p.z - ez];
  const squared = dx * dx + dy * dy + dz * dz;
  const distance = Math.sqrt(squared);
  // Whether the sight line passes within `reach` of `c`, short of the label by `margin`.
  const near = (c, reach, margin) => {
    const [wx, wy, wz] = [c.x - ex, c.y - ey, c.z - ez];
    const along = (wx * dx + wy * dy + wz * dz) / distance;
    return along < distance - margin && wx * wx + wy * wy + wz * wz - along * along < reach * reach;
  };
  for (let v = 0; v < centres.length; v++) {
    if (v !== own.vertex && near(centres[v], RADIUS, RADIUS)) return true;
  }
  // A rod must cross the sight line in front of the label's sphere, or of its own rod.
  const depth = own.vertex === undefined ? 0 : RADIUS;
  for (let e = 0; e < rods.length; e++) {
    const { a, b, middle, half, radius, u, v } = rods[e];
    // Most rods are nowhere near the sight line: their bounding spheres tell at once.
    if (e === own.edge || u === own.vertex || v === own.vertex || !near(middle, half + radius, -half)) continue;
    // The closest points of the sight line, eye + s (p - eye), and the rod's axis,
    // a + r (b - a), for s and r in [0, 1] (Ericson, Real-Time Collision Detection 5.1.9).
    const [rx, ry, rz] = [b.x - a.x, b.y - a.y, b.z - a.z];
    const [fx, fy, fz] = [ex - a.x, ey - a.y, ez - a.z];
    const rod = rx * rx + ry * ry + rz * rz;
    const skew = dx * rx + dy * ry + dz * rz;
    const sightFrom = dx * fx + dy * fy + dz * fz;
    const rodFrom = rx * fx + ry * fy + rz * fz;
    const parallel = squared * rod - skew * skew;
    let s = parallel > 1e-12 ? clamp01((skew * rodFrom - sightFrom * rod) / parallel) : 0;
    let r = rod ? (skew * s + rodFrom) / rod : 0;
    if (r < 0 || r > 1) {
      r = clamp01(r);
      s = clamp01((r * skew - sightFrom) / squared);
    }
    const [gx, gy, gz] = [fx + s * dx - r * rx, fy + s * dy - r * ry, fz + s * dz - r * rz];
    if (s * distance < distance - Math.max(depth, radius) && gx * gx + gy * gy + gz * gz < radius * radius) return true;
  }
  return false;
}

/**
 * Where a graph's vertices and edges go in space (edges about 1 long): stress
 * majorization, each pair of vertices pulled towards their distance in the graph (pairs
 * in different components towards one more than the longest), from the flat drawing
 * `pos` lifted off its plane by a seeded jitter. Answers the `vertices` and each edge's
 * two ends (`edges`), parallel edges moved apart.
 */
export function layout3d(pos, edges) {
  const n = pos.length;
  const adj = Array.from({ length: n }, () => []);
  for (const [u, v] of edges) {
    if (u !== v) { adj[u].push(v); adj[v].push(u); }
  }
  const distance = new Float64Array(n * n).fill(Infinity);
  for (let s = 0; s < n; s++) {
    distance[s * n + s] = 0;
    const queue = [s];
    for (let i = 0; i < queue.length; i++) {
      const u = queue[i];
      for (const w of adj[u]) {
        if (distance[s * n + w] === Infinity) { distance[s * n + w] = distance[s * n + u] + 1; queue.push(w); }
      }
    }
  }
  const longest = Math.max(1, ...distance.filter(Number.isFinite));
  for (let i = 0; i < distance.length; i++) if (distance[i] === Infinity) distance[i] = longest + 1;
  // The flat drawing, scaled to edges about 1 long, centred and jittered off its plane.
  const lengths = edges.filter(([u, v]) => u !== v).map(([u, v]) => Math.hypot(pos[u][0] - pos[v][0], pos[u][1] - pos[v][1]));
  const unit = lengths.length ? lengths.reduce((a, b) => a + b, 0) / lengths.length || 1 : 70;
  const random = seeded(n * 7919 + edges.length);
  const [cx, cy] = [0, 1].map((i) => pos.reduce((s, p) => s + p[i], 0) / (n || 1));
  // Coordinates as one flat array (x, y, z of each vertex in turn), plain numbers in the
  // inner loop and the square root written out: Math.hypot and an array a vertex made the
  // rounds of 100 vertices take seconds (BENCHMARKS.md, "Page").
  const x = new Float64Array(3 * n);
  pos.forEach(([px, py], i) => x.set([(px - cx) / unit, (py - cy) / unit, random() - 0.5], 3 * i));
  // Grids seeded from their flat drawing settle within 30 rounds (the stress changes by
  // 0.3% from 30 to 300); at most 3 million vertex pairs a layout keep it under 0.2 s.
  const rounds = Math.max(30, Math.min(300, Math.floor(3e6 / (n * n || 1))));
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < n; i++) {
      const xi = x[3 * i];
      const yi = x[3 * i + 1];
      const zi = x[3 * i + 2];
      let nx = 0;
      let ny = 0;
      let nz = 0;
      let weights = 0;
      for (let j = 0; j < n; j++) {
        if (j === i) continue;
        const d = distance[i * n + j];
        const w = 1 / (d * d);
        const xj = x[3 * j];
        const yj = x[3 * j + 1];
        const zj = x[3 * j + 2];
        const dx = xi - xj;
        const dy = yi - yj;
        const dz = zi - zj;
        const pull = (w * d) / (Math.sqrt(dx * dx + dy * dy + dz * dz) || 1e-9);
        nx += w * xj + pull * dx;
        ny += w * yj + pull * dy;
        nz += w * zj + pull * dz;
        weights += w;
      }
      if (weights) {
        x[3 * i] = nx / weights;
        x[3 * i + 1] = ny / weights;
        x[3 * i + 2] = nz / weights;
      }
    }
  }
  const vertices = Array.from({ length: n }, (_, i) => new THREE.Vector3(x[3 * i], -x[3 * i + 1], x[3 * i + 2]));
  const centre = new THREE.Vector3();
  for (const p of vertices) centre.addScaledVector(p, 1 / (n || 1));
  for (const p of vertices) p.sub(centre);
  // Parallel edges side by side, across their common line.
  const pairKey = (u, v) => (u < v ? `${u},${v}` : `${v},${u}`);
  const count = new Map();
  for (const [u, v] of edges) count.set(pairKey(u, v), (count.get(pairKey(u, v)) || 0) + 1);
  const seen = new Map();
  return {
    vertices,
    edges: edges.map(([u, v]) => {
      const key = pairKey(u, v);
      const k = seen.get(key) || 0;
      seen.set(key, k + 1);
      const [a, b] = [vertices[u].clone(), vertices[v].clone()];
      const shift = (k - (count.get(key) - 1) / 2) * RADIUS * 0.9;
      if (shift) {
        const along = b.clone().sub(a).normalize();
        const across = new THREE.Vector3(0, 0, 1).cross(along);
        if (across.lengthSq() < 1e-6) across.set(1, 0, 0);
        across.normalize().multiplyScalar(shift);
        a.add(across);
        b.add(across);
      }
      return [a, b];
    }),
  };
}
