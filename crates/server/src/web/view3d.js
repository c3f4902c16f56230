// The board in 3D beside the disk (three.js, WebGL): a goldberg or taylor board or a pasted
// projective plane on the sphere (each cell twice, antipodal copies lit together), on
// Boy's surface or on the cross-cap, a torus or
// Klein bottle board on a torus or a Klein bottle. Turn, zoom and pan with mouse or touch
// (OrbitControls); a click that is not a drag plays the cell under it, found by casting a
// ray. The view outlives the page's redraws, so a move does not reset its orientation; a
// move played where no copy of its cell is in view turns the view until one is.
// Each cell copy on show has a label element (same name on every copy) whose data-x and
// data-y give its place on the canvas, for players and for WebDriver alike.
import * as THREE from "./vendor/three.module.js";
import { OrbitControls } from "./vendor/OrbitControls.js";
import { el, offersWebgl, pane3d, withoutWebgl } from "./draw.js";
import { BORDER_FROM, choicesOf, surfacePath, tessellate } from "./shapes3d.js";
import { t } from "./i18n.js";

// A pointer that moved less than this (CSS pixels) between down and up clicked.
const CLICK_SLOP = 6;
// A label's text is shown when its cell reaches this far from its centre on screen, plus
// CHAR_WIDTH per character (CSS pixels; the labels are 11 px bold).
const LABEL_ROOM = 3;
const CHAR_WIDTH = 3.3;
// A label is hidden when its cell is seen at a grazing angle: cosine below this.
const EDGE_ON = 0.25;
// Where a label seen nearly edge on is checked besides its middle: pixels to either side.
const SIDE_STEPS = [[1.5, 0], [-1.5, 0], [0, 1.5], [0, -1.5]];
// How long the view takes to turn a move played out of sight into view (ms).
const GLIDE_MS = 700;
// A copy that a turn brings into view faces the eye at least this much (cosine).
const FACING = 0.5;
const BAND = { plain: "#4d4d4d", lit: "#f1c40f", loop: "#f1c40f", last: "#ffffff", hint: "#00aa00", solved: "#7ccf8e" };

const current = {}; // the view of the game on show, as besideKept keeps it

/**
 * Puts the board in 3D, on `surfaces` (shapes3d.js's surfacesOf), in the room kept beside
 * the disk `disk` (surface.js). `paint` is drawSurface's: `fill(cell)` a CSS class,
 * `marked` cells, `loop` cell indices, `loops` more cycles of cells ({ cells, cls }: a
 * region's loops, drawn in the seat's dark colour).
 */
export function view3d(disk, state, ctx, paint, surfaces) {
  besideKept(current, `${state.id} ${state.board}`, disk, (context) => createView(context, surfaces))?.update(state, ctx, paint, disk);
}

/**
 * The 3D view `kept` holds ({ key, view }: a view made by `create(context)`, { element,
 * update, dispose }) in the room kept beside `flat` (draw.js's roomFor3d), where it takes
 * the place of the empty pane and its words; a new view for a new `key`. Answers the
 * view, or null when WebGL fails after all (then the flat drawing goes alone and says so).
 */
export function besideKept(kept, key, flat, create) {
  if (kept.key !== key) {
    kept.view?.dispose();
    const context = webgl();
    if (!context) {
      Object.assign(kept, { key: null, view: null });
      withoutWebgl(flat);
      return null;
    }
    Object.assign(kept, { key, view: create(context) });
  }
  const room = flat.closest(".views").querySelector(":scope > .pane3d");
  if (room !== kept.view.element) {
    kept.view.element.querySelector(".help3d").textContent = room.querySelector(".help3d").textContent;
    room.replaceWith(kept.view.element);
  }
  return kept.view;
}

/**
 * A canvas and its WebGL 2 context, or null. Antialiasing (multisampling) is asked for on
 * a GPU only: a software renderer (SwiftShader, llvmpipe) pays for it on the CPU, most of
 * each frame's time (p50 83 ms against 33 ms on goldberg:8).
 */
export function webgl() {
  for (const antialias of offersWebgl() ? [true, false] : []) {
    const canvas = el("canvas");
    const gl = canvas.getContext("webgl2", { antialias, alpha: false, stencil: false });
    if (!gl) break;
    const info = gl.getExtension("WEBGL_debug_renderer_info");
    const software = /swiftshader|llvmpipe|software/i.test(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : "");
    if (!software || !antialias) return { canvas, gl, software };
  }
  return null;
}

/** `paint`, run on the next frame by the function answered, once however often that is
 * called meanwhile (a flat drawing's changes of class come in bursts). */
export function onceAFrame(paint) {
  let pending = false;
  return () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      paint();
    });
  };
}

/**
 * What every 3D view has: a renderer on `context`'s canvas, a camera turned, zoomed and
 * panned by OrbitControls, a layer of labels over the canvas (hidden from screen
 * readers: they repeat the flat drawing, which screen readers and keys use), a bar of
 * buttons ending in Reset view and Full screen (the whole pane), and under the canvas
 * what the view shows (in words that the room kept for the view gives it: draw.js's
 * roomFor3d). `hooks` says what the view shows: `ready()` whether there is something to
 * draw, `beforeRender()` whether the view moves itself (and is moved on a step),
 * `placeLabels()` after each frame, `settle()` once the view rests, `click(event)` on a
 * click that is not a drag and `hover(event or null)` as a mouse moves over the canvas
 * unpressed; all but `ready` and `placeLabels` may be left out (a view that never moves
 * itself, has nothing to work out at rest, or plays nothing). The bar has a button for each of `choices` (pane3d's).
 */
export function createStage({ canvas, gl, software }, given, choices = []) {
  const hooks = { beforeRender: () => false, settle: () => {}, click: () => {}, hover: () => {}, ...given };
  const renderer = new THREE.WebGLRenderer({ canvas, context: gl, antialias: !software });
  const sharp = Math.min(window.devicePixelRatio || 1, 2);
  renderer.setPixelRatio(sharp);
  renderer.setClearColor(0xffffff);
  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(35, 1, 0.01, 100);
  camera.up.set(0, 0, 1);
  scene.add(camera, new THREE.AmbientLight(0xffffff, 1.4));
  const sun = new THREE.DirectionalLight(0xffffff, 1.8);
  sun.position.set(1, 1.5, 2);
  camera.add(sun);
  const controls = new OrbitControls(camera, canvas);
  // The view eases to a stop on a GPU. A software renderer follows the pointer instead and
  // draws only when it moves: easing draws every display frame, twice the frames of a
  // drag (whose pointer moves about every other frame), and on a busy CPU those frames
  // came late (BENCHMARKS.md, "Page").
  const easing = !software;
  controls.enableDamping = easing;
  controls.dampingFactor = 0.12;
  // Between the pointer going down and up (or a wheel turn): the view is being moved.
  let turning = false;
  controls.addEventListener("start", () => {
    turning = true;
  });
  controls.addEventListener("end", () => {
    turning = false;
    requestRender();
  });

  const labels = el("div", { class: "labels", "aria-hidden": "true" });
  canvas.setAttribute("role", "img");
  const element = pane3d({ help: "", choices });
  element.id = "view3d";
  const [bar, stage] = element.children;
  stage.append(canvas, labels);
  const requestRender = onceAFrame(render);
  const view = { element, bar, stage, labels, canvas, scene, camera, controls, width: 0, height: 0, requestRender, frame, rayAt, unsettle, dispose };
  view.turning = () => turning;

  let settle = null;
  // The camera when the view last came to rest.
  let settledAt = null;
  // What `frame` was last given: the view Reset view goes back to.
  let framed = null;

  /**
   * Looks at what `bound` (a sphere) holds from above and aside (or from `eye`), far
   * enough to see all of it; a row of boards seen from the front is framed by its `box`,
   * in which the sphere around it would leave it small.
   */
  function frame(bound, eye = null, box = null) {
    framed = [bound, eye, box];
    // Drops what is left of an easing turn or pan, which would carry the view on.
    controls.enableDamping = false;
    controls.update();
    controls.enableDamping = easing;
    const tan = Math.tan(THREE.MathUtils.degToRad(camera.fov / 2));
    let distance = bound.radius / Math.sin(THREE.MathUtils.degToRad(camera.fov / 2)) * 1.2;
    if (box) {
      const size = box.getSize(new THREE.Vector3());
      distance = Math.min(distance, 1.15 * (Math.max(size.x / (2 * tan * camera.aspect), size.z / (2 * tan)) + size.y / 2));
    }
    controls.target.copy(bound.center);
    camera.position.copy(bound.center).add(new THREE.Vector3(...(eye || [0.25, -0.35, 0.9])).normalize().multiplyScalar(distance));
    camera.near = distance / 50;
    camera.far = distance * 10;
    camera.updateProjectionMatrix();
    controls.minDistance = bound.radius * 0.4;
    controls.maxDistance = distance * 3;
    controls.update();
    requestRender();
  }
  bar.querySelector(".reset").addEventListener("click", () => frame(...framed));

  // Full screen: the game's column where there is one (play.js's [data-fullscreen]: the
  // status, the end card and a game's own controls, such as Edge-Nim's Take, stay in
  // sight; view3d.css shows the view there without the flat drawing), else the pane
  // alone; the stage grows into it (the ResizeObserver below resizes the renderer and the
  // labels follow). Esc leaves it as the button does. The column is looked for at the
  // click: the pane may not be in the page yet here.
  const fullscreen = bar.querySelector(".fullscreen");
  fullscreen.addEventListener("click", () => {
    if (document.fullscreenElement?.contains(element)) document.exitFullscreen();
    else (element.closest("[data-fullscreen]") ?? element).requestFullscreen();
  });
  const followFullscreen = () => {
    fullscreen.textContent = t(document.fullscreenElement?.contains(element) ? "Exit full screen" : "Full screen");
  };
  document.addEventListener("fullscreenchange", followFullscreen);

  const raycaster = new THREE.Raycaster();
  // The ray from the eye through the point of the canvas a pointer event is at.
  function rayAt(event) {
    const rect = canvas.getBoundingClientRect();
    const ndc = new THREE.Vector2(
      ((event.clientX - rect.left) / rect.width) * 2 - 1,
      -((event.clientY - rect.top) / rect.height) * 2 + 1);
    raycaster.setFromCamera(ndc, camera);
    return raycaster.ray;
  }

  let down = null;
  canvas.addEventListener("pointerdown", (e) => { down = { id: e.pointerId, x: e.clientX, y: e.clientY }; });
  canvas.addEventListener("pointerup", (e) => {
    const click = down && down.id === e.pointerId && Math.hypot(e.clientX - down.x, e.clientY - down.y) < CLICK_SLOP;
    down = null;
    if (click && hooks.ready()) hooks.click(e);
  });
  canvas.addEventListener("pointermove", (e) => {
    if (e.buttons === 0 && e.pointerType === "mouse" && hooks.ready()) hooks.hover(e);
  });
  canvas.addEventListener("pointerleave", () => {
    if (hooks.ready()) hooks.hover(null);
  });

  controls.addEventListener("change", () => {
    delete element.dataset.settled;
    clearTimeout(settle);
    requestRender();
  });
  // A software renderer turns the view at half resolution, a quarter of the pixels (from
  // 50 to 33 ms a frame at p95 on goldberg:8, BENCHMARKS.md), and sharpens it at rest.
  let sharpen = null;
  const resolution = (ratio) => {
    if (renderer.getPixelRatio() === ratio) return;
    renderer.setPixelRatio(ratio);
    if (view.width && view.height) renderer.setSize(view.width, view.height, false);
    requestRender();
  };
  if (software) {
    controls.addEventListener("start", () => {
      clearTimeout(sharpen);
      resolution(sharp / 2);
    });
    controls.addEventListener("end", () => {
      sharpen = setTimeout(() => resolution(sharp), 300);
    });
  }
  // Whether the canvas has had its size: the first view is framed before it has, so it is
  // framed again then, for the canvas's shape.
  let sized = false;
  const resized = new ResizeObserver(() => {
    view.width = stage.clientWidth;
    view.height = stage.clientHeight;
    if (!view.width || !view.height) return;
    renderer.setSize(view.width, view.height, false);
    camera.aspect = view.width / view.height;
    camera.updateProjectionMatrix();
    if (!sized && framed) frame(...framed);
    sized = true;
    requestRender();
  });
  resized.observe(stage);

  // The view is to be settled again even where the camera rests as before (what it shows
  // has changed).
  function unsettle() {
    settledAt = null;
  }

  function render() {
    if (!hooks.ready() || !view.width || !view.height) return;
    const moved = hooks.beforeRender();
    // True while the view is moved or still eases (then its 'change' asks for the next frame).
    const moving = controls.update() || turning || moved;
    if (moved) requestRender();
    renderer.render(scene, camera);
    // A software renderer turns the view without its labels: with no GPU the page also
    // composites on the CPU, and repainting a few hundred shadowed labels every frame
    // costs as much as drawing the surface. They come back as soon as the view rests.
    const bare = software && moving;
    if (labels.hidden !== bare) labels.hidden = bare;
    if (!bare) hooks.placeLabels();
    if (moving) return;
    // Once the view stops moving its labels are final (after `settle`: only when the view
    // has moved), and the pane says so with data-settled, which tests wait for.
    const seen = [...camera.matrixWorld.elements, ...camera.projectionMatrix.elements].join();
    if (seen === settledAt) {
      element.dataset.settled = "";
      return;
    }
    clearTimeout(settle);
    settle = setTimeout(() => {
      settledAt = seen;
      hooks.settle();
      element.dataset.settled = "";
    }, 120);
  }

  function dispose() {
    document.removeEventListener("fullscreenchange", followFullscreen);
    clearTimeout(settle);
    resized.disconnect();
    controls.dispose();
    renderer.dispose();
    renderer.forceContextLoss();
  }

  return view;
}

// The parts of a view that survive redraws: the stage, the mesh of the surface on show
// and its labels.
function createView(context, surfaces) {
  const view = createStage(context, {
    ready: () => Boolean(shown),
    beforeRender: () => {
      if (glide) glideOn();
      return Boolean(glide);
    },
    placeLabels,
    settle: () => {
      if (!shown.surface.convex) occlude();
    },
    click: (e) => {
      const copy = copyAt(e);
      const name = copy && state.layout.names[copy.cell];
      if (name && ctx.canMove && state.legal_moves.includes(name)) ctx.play(name);
    },
    hover: (e) => {
      const copy = e && copyAt(e);
      hover(copy ? copy.cell : null);
    },
  }, choicesOf(surfaces));
  const { element, bar: chooser, stage, labels, canvas, scene, camera, controls, requestRender } = view;
  controls.addEventListener("start", () => {
    glide = null;
  });
  // What the model on show is and what it shows (each cell twice, a surface that passes
  // through itself, a connected sum's tubes).
  const about = element.querySelector(".about3d");
  about.id = "surface-note";

  let shown = null; // the surface on show: mesh, its copies and their labels
  let state = null;
  let ctx = { canMove: false };
  let paint = { fill: () => "empty", marked: new Set(), loop: null, loops: [] };
  let disk = null;
  let hovered = null; // a cell lit by the pointer, here or on the disk
  // The last move the view has seen (undefined before the first drawing), and the turn
  // under way that brings a move into view: { from, to, distance, start }.
  let lastSeen;
  let glide = null;
  const probe = el("div", { class: "probe" });
  element.append(probe);

  function show(surface) {
    if (shown) {
      scene.remove(shown.group);
      disposeTree(shown.group);
    }
    // Each cell's fan is split k times: finer on small boards, where cells are large and
    // curved. Past about 500 copies k is 1 (goldberg:8: 3,840 triangles, not 15,360 with
    // k = 2), which a software renderer draws in time while turning.
    const k = Math.max(1, Math.min(8, Math.round(Math.sqrt(1200 / surface.copies.length))));
    const mesh = tessellate(surface.copies, k);
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute("position", new THREE.BufferAttribute(mesh.positions, 3));
    geometry.setAttribute("color", new THREE.BufferAttribute(new Float32Array(mesh.positions.length), 3));
    geometry.setAttribute("band", new THREE.BufferAttribute(new Float32Array(mesh.positions.length), 3));
    geometry.setAttribute("edge", new THREE.BufferAttribute(mesh.edges, 1));
    geometry.setIndex(new THREE.BufferAttribute(mesh.index, 1));
    geometry.computeVertexNormals();
    geometry.computeBoundingSphere();
    const group = new THREE.Group();
    group.add(new THREE.Mesh(geometry, bandedMaterial()));
    scene.add(group);
    about.textContent = surface.note ? t(surface.note) : "";
    about.hidden = !surface.note;
    const copies = mesh.copies.map((c, index) => ({
      ...c,
      index,
      quiet: Boolean(surface.copies[index].quiet),
      centre: new THREE.Vector3(...c.centre),
      corners: c.corners.map((p) => new THREE.Vector3(...p)),
      normal: new THREE.Vector3().fromBufferAttribute(geometry.getAttribute("normal"), c.vertices[0]),
      occluded: false,
      label: el("span", { class: "cell3d", "data-cell": c.cell, hidden: "" }),
    }));
    labels.replaceChildren(...copies.map((c) => c.label));
    shown = { surface, geometry, group, copies, positions: mesh.positions, index: mesh.index, loop: null };
    view.unsettle();
    chooser.querySelectorAll("button").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.surface === surface.name)));
    element.dataset.surface = surface.name;
    canvas.setAttribute("aria-label", t("The board in 3D: {surface}", { surface: t(surface.title) }));
    frame3d(geometry);
    if (state) update(state, ctx, paint, disk);
  }

  // Looks at the surface from where it is best seen, far enough to see all of it: a row
  // of boards (seen from the front) by its box.
  function frame3d(geometry) {
    if (shown.surface.eye) geometry.computeBoundingBox();
    view.frame(geometry.boundingSphere, shown.surface.eye, shown.surface.eye ? geometry.boundingBox : null);
  }

  chooser.querySelectorAll("[data-surface]").forEach((button, i) => button.addEventListener("click", () => show(surfaces[i])));

  // The CSS colour of a fill class, as the disk draws it.
  const colours = new Map();
  function fillColour(name) {
    if (!colours.has(name)) {
      const svg = el("svg", { class: "surface" }, el("polygon", { class: `cell ${name}` }));
      probe.replaceChildren(svg);
      const fill = getComputedStyle(svg.firstChild).fill;
      colours.set(name, new THREE.Color(fill && fill.startsWith("rgb") ? fill : "#ddd"));
    }
    return colours.get(name);
  }

  function bandColour(cell) {
    const name = state.layout.names[cell];
    if (cell === hovered) return BAND.lit;
    if (ctx.last === name) return BAND.last;
    if (ctx.canMove && ctx.hint === name) return BAND.hint;
    if (ctx.canMove && ctx.solved && ctx.solved.has(name)) return BAND.solved;
    if (paint.marked.has(cell)) return BAND.loop;
    return BAND.plain;
  }

  const edge = new THREE.Color();
  function paintCopy(copy, fills, bands) {
    const fill = fillColour(paint.fill(copy.cell));
    edge.set(bandColour(copy.cell));
    const [start, count] = copy.vertices;
    for (let v = start; v < start + count; v++) {
      fills.setXYZ(v, fill.r, fill.g, fill.b);
      bands.setXYZ(v, edge.r, edge.g, edge.b);
    }
  }

  function repaint() {
    const fills = shown.geometry.getAttribute("color");
    const bands = shown.geometry.getAttribute("band");
    for (const copy of shown.copies) paintCopy(copy, fills, bands);
    fills.needsUpdate = true;
    bands.needsUpdate = true;
    requestRender();
  }

  function update(nextState, nextCtx, nextPaint, nextDisk) {
    state = nextState;
    ctx = nextCtx;
    paint = { marked: new Set(), loop: null, loops: [], ...nextPaint };
    if (disk !== nextDisk) {
      disk = nextDisk;
      disk.addEventListener("mouseover", (e) => hover(cellOf(e.target)));
      disk.addEventListener("mouseleave", () => hover(null));
      disk.querySelectorAll(`[data-cell="${hovered}"]`).forEach((n) => n.classList.add("twin-lit"));
    }
    if (!shown) {
      show(surfaces[0]);
      return;
    }
    const legal = new Set(ctx.canMove ? state.legal_moves : []);
    // Only what changed is written: each write restyles the label.
    for (const copy of shown.copies) {
      const name = state.layout.names[copy.cell];
      const label = copy.label;
      if (label.dataset.name !== name) {
        label.textContent = name;
        label.dataset.name = name;
      }
      if (!legal.has(name)) delete label.dataset.move;
      else if (label.dataset.move !== name) label.dataset.move = name;
    }
    drawLoop();
    repaint();
    // A move played where no copy of its cell is in view (the computer's, a friend's, or
    // one made on the disk) turns the view towards it; the page's first drawing keeps the
    // view as framed.
    if (lastSeen !== undefined && ctx.last !== lastSeen && ctx.last !== null) {
      const cell = state.layout.names.indexOf(ctx.last);
      if (cell >= 0) bringIntoView(cell);
    }
    lastSeen = ctx.last;
  }

  // Whether the eye at `eye`, looking at the view's centre, sees `copy` well: facing it,
  // in the frame, and the first thing on the ray to its middle.
  const lens = new THREE.PerspectiveCamera();
  function seenFrom(copy, eye) {
    const towards = eye.clone().sub(copy.centre);
    const distance = towards.length();
    towards.divideScalar(distance);
    if (copy.quiet || Math.abs(copy.normal.dot(towards)) < FACING) return false;
    lens.copy(camera);
    lens.position.copy(eye);
    lens.lookAt(controls.target);
    lens.updateMatrixWorld();
    const at = copy.centre.clone().project(lens);
    if (at.z >= 1 || Math.abs(at.x) > 0.9 || Math.abs(at.y) > 0.9) return false;
    const ray = new THREE.Ray(eye, towards.negate());
    return firstHit(shown, ray, distance + copy.radius * 0.05) === copy;
  }

  // Turns the view about its centre, by the smallest of a few turns tried, until a copy
  // of `cell` is seen; does nothing while the reader turns it, or when a copy is labelled
  // on show already.
  function bringIntoView(cell) {
    const copies = shown ? shown.copies.filter((c) => c.cell === cell) : [];
    if (view.turning() || !copies.length || !stage.clientWidth || copies.some((c) => !c.label.hidden)) return;
    const centre = controls.target;
    const distance = camera.position.distanceTo(centre);
    const from = camera.position.clone().sub(centre).normalize();
    let best = null;
    for (const copy of copies) {
      const outward = copy.centre.clone().sub(centre).normalize();
      const normal = copy.normal.clone();
      for (const side of [outward, normal, normal.clone().negate()]) {
        if (side.lengthSq() === 0) continue;
        const turn = new THREE.Quaternion().setFromUnitVectors(from, side);
        // Part of the way may be enough: the smallest such turn is kept.
        for (const part of [0.25, 0.5, 0.75, 1]) {
          const to = from.clone().applyQuaternion(new THREE.Quaternion().slerp(turn, part));
          const angle = from.angleTo(to);
          if (best && angle >= best.angle) break;
          if (seenFrom(copy, centre.clone().addScaledVector(to, distance))) {
            best = { to, angle };
            break;
          }
        }
      }
    }
    if (!best) return;
    glide = { from, to: best.to, distance, start: performance.now() };
    delete element.dataset.settled;
    if (matchMedia("(prefers-reduced-motion: reduce)").matches) glide.start -= GLIDE_MS;
    requestRender();
  }

  // Moves the eye along the turn under way (eased in and out); ends it once there.
  function glideOn() {
    const t = Math.min(1, (performance.now() - glide.start) / GLIDE_MS);
    const eased = t < 0.5 ? 2 * t * t : 1 - (2 - 2 * t) ** 2 / 2;
    const turn = new THREE.Quaternion().setFromUnitVectors(glide.from, glide.to);
    const towards = glide.from.clone().applyQuaternion(new THREE.Quaternion().slerp(turn, eased));
    camera.position.copy(controls.target).addScaledVector(towards, glide.distance);
    if (t === 1) glide = null;
  }

  const cellOf = (node) => (node && node.dataset && node.dataset.cell !== undefined ? Number(node.dataset.cell) : null);

  // Lights a cell's copies here and its pieces on the disk.
  function hover(cell) {
    if (cell === hovered || !shown) return;
    const before = hovered;
    hovered = cell;
    for (const c of [before, cell]) {
      if (c === null) continue;
      disk.querySelectorAll(`[data-cell="${c}"]`).forEach((n) => n.classList.toggle("twin-lit", c === cell));
      labels.querySelectorAll(`[data-cell="${c}"]`).forEach((n) => n.classList.toggle("lit", c === cell));
    }
    const name = cell === null ? null : state.layout.names[cell];
    canvas.style.cursor = name !== null && ctx.canMove && state.legal_moves.includes(name) ? "pointer" : "";
    repaint();
  }

  // The winning loop and the regions' loops as tubes through the centres of their cells:
  // from each copy of a loop's first cell, on to the nearest copy of the next cell, so
  // that on the sphere the two lifts of a loop through the rim join into one closed curve.
  function drawLoop() {
    if (shown.loop) {
      shown.group.remove(shown.loop);
      disposeTree(shown.loop);
      shown.loop = null;
    }
    // Styles are read only when there are regions' loops (reading them lays out the page).
    const style = paint.loops.length ? getComputedStyle(document.documentElement) : null;
    const loops = [
      { cells: paint.loop || [], colour: BAND.loop },
      ...paint.loops.map(({ cells, cls }) => ({ cells, colour: style.getPropertyValue(`--${cls.toLowerCase()}-dark`).trim() || "#333" })),
    ].filter(({ cells }) => cells.length > 1);
    if (!loops.length) return;
    const group = new THREE.Group();
    for (const { cells, colour } of loops) tube(group, cells, colour);
    shown.group.add(group);
    shown.loop = group;
  }

  function tube(group, loop, colour) {
    const copiesOf = (cell) => shown.copies.filter((c) => c.cell === cell);
    const size = shown.geometry.boundingSphere.radius;
    for (const start of copiesOf(loop[0])) {
      const points = [start.centre];
      let at = start;
      for (const cell of [...loop.slice(1), loop[0]]) {
        const next = copiesOf(cell).reduce((best, c) => (c.centre.distanceTo(at.centre) < best.centre.distanceTo(at.centre) ? c : best));
        const path = surfacePath(shown.surface.copies[at.index], shown.surface.copies[next.index]);
        points.push(...path.slice(1).map((p) => new THREE.Vector3(...p)));
        at = next;
      }
      // Centred on the surface, the tube shows on both of its sides.
      const curve = new THREE.CatmullRomCurve3(points, false, "centripetal");
      group.add(new THREE.Mesh(
        new THREE.TubeGeometry(curve, points.length * 3, size * 0.016, 6, false),
        new THREE.MeshBasicMaterial({ color: colour })));
    }
  }

  const copyAt = (event) => firstHit(shown, view.rayAt(event));

  controls.addEventListener("change", () => {
    // What hides what is known again once the view rests: until then no label on a
    // surface that can hide itself, rather than labels on cells turned out of sight.
    if (shown && !shown.surface.convex) {
      shown.copies.forEach((c) => { c.occluded = true; });
      view.unsettle();
    }
  });

  // Moves each label to its copy's centre on the canvas; hides those facing away, off the
  // canvas or hidden, and the text of those too small to hold it.
  function placeLabels() {
    const { width, height } = view;
    const at = new THREE.Vector3();
    const corner = new THREE.Vector3();
    const towards = new THREE.Vector3();
    const eye = camera.position;
    for (const copy of shown.copies) {
      at.copy(copy.centre).project(camera);
      const x = ((at.x + 1) / 2) * width;
      const y = ((1 - at.y) / 2) * height;
      // Seen edge on, a cell shows too little to point at (nor to pick reliably).
      towards.copy(eye).sub(copy.centre).normalize();
      const facing = Math.abs(copy.normal.dot(towards)) > EDGE_ON
        && (shown.surface.convex ? copy.centre.dot(towards) > 0 : !copy.occluded);
      const visible = !copy.quiet && facing && at.z < 1 && x >= 0 && y >= 0 && x <= width && y <= height;
      const label = copy.label;
      if (label.hidden !== !visible) label.hidden = !visible;
      if (!visible) continue;
      // The cell's narrowest reach on screen (it may be seen edge on) against half the label.
      const room = Math.min(...copy.corners.map((c) => {
        corner.copy(c).project(camera);
        return Math.hypot(((corner.x + 1) / 2) * width - x, ((1 - corner.y) / 2) * height - y);
      }));
      label.classList.toggle("small", room < LABEL_ROOM + CHAR_WIDTH * label.textContent.length);
      label.style.transform = `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px) translate(-50%, -50%)`;
      label.dataset.x = Math.round(x);
      label.dataset.y = Math.round(y);
    }
  }

  // Marks the copies whose middle is not what the eye sees there: hidden by something
  // nearer, or on the outline of a fold. A ray per copy, tested against the copies
  // whose outline on screen can cover its centre: a grid of squares over the canvas, each
  // listing the copies whose bounding circle reaches into it.
  const raycaster = new THREE.Raycaster();
  function occlude() {
    const { width, height } = view;
    const square = 32;
    const focal = height / (2 * Math.tan(THREE.MathUtils.degToRad(camera.fov / 2)));
    const eye = camera.position;
    const grid = new Map();
    const everywhere = [];
    const at = new THREE.Vector3();
    const screen = (copy) => {
      at.copy(copy.centre).project(camera);
      return [((at.x + 1) / 2) * width, ((1 - at.y) / 2) * height];
    };
    for (const copy of shown.copies) {
      const distance = copy.centre.distanceTo(eye);
      if (distance <= copy.radius) {
        everywhere.push(copy);
        continue;
      }
      const [x, y] = screen(copy);
      // Off the axis a sphere's outline is a little wider than this: hence the margin.
      const reach = ((1.25 * copy.radius) / distance) * focal;
      for (let gx = Math.floor((x - reach) / square); gx <= Math.floor((x + reach) / square); gx++) {
        for (let gy = Math.floor((y - reach) / square); gy <= Math.floor((y + reach) / square); gy++) {
          const key = `${gx} ${gy}`;
          if (!grid.has(key)) grid.set(key, []);
          grid.get(key).push(copy);
        }
      }
    }
    const ray = new THREE.Ray();
    for (const copy of shown.copies) {
      const [x, y] = screen(copy);
      const near = grid.get(`${Math.floor(x / square)} ${Math.floor(y / square)}`) || [];
      ray.origin.copy(eye);
      ray.direction.copy(copy.centre).sub(eye);
      const distance = ray.direction.length();
      ray.direction.divideScalar(distance);
      const candidates = { ...shown, copies: [...near, ...everywhere] };
      // Hidden unless the copy is what the ray to its middle meets first: something nearer
      // hides it, or the ray meets nothing, its middle on the outline of a fold (where a
      // label would point past the surface).
      copy.occluded = firstHit(candidates, ray, distance + copy.radius * 0.05) !== copy;
      // Seen nearly edge on, its middle may lie within a pixel of its outline: the label
      // is shown only if the rays a little to either side of its middle meet it too.
      const grazing = Math.abs(copy.normal.dot(ray.direction)) < 2 * EDGE_ON;
      if (!copy.occluded && grazing) {
        const ndc = new THREE.Vector2(at.x, at.y);
        copy.occluded = SIDE_STEPS.some(([dx, dy]) => {
          raycaster.setFromCamera(new THREE.Vector2(ndc.x + (2 * dx) / width, ndc.y + (2 * dy) / height), camera);
          return firstHit(candidates, raycaster.ray) !== copy;
        });
      }
    }
    placeLabels();
  }

  function dispose() {
    if (shown) disposeTree(shown.group);
    view.dispose();
  }

  return { element, update, dispose };
}

// The copy of the surface on show that a ray meets first (nearer than `before`), or null:
// bounding spheres first, then the triangles of the copies they pass.
function firstHit({ copies, positions, index }, ray, before = Infinity) {
  const a = new THREE.Vector3();
  const b = new THREE.Vector3();
  const c = new THREE.Vector3();
  const hit = new THREE.Vector3();
  let best = null;
  let bestDistance = before;
  for (const copy of copies) {
    if (ray.distanceSqToPoint(copy.centre) > copy.radius * copy.radius) continue;
    const [start, count] = copy.tris;
    for (let t = start; t < start + count; t++) {
      a.fromArray(positions, 3 * index[3 * t]);
      b.fromArray(positions, 3 * index[3 * t + 1]);
      c.fromArray(positions, 3 * index[3 * t + 2]);
      if (!ray.intersectTriangle(a, b, c, false, hit)) continue;
      const distance = hit.distanceTo(ray.origin);
      if (distance < bestDistance) {
        bestDistance = distance;
        best = copy;
      }
    }
  }
  return best;
}

// Lambert shading of the vertex colours (a cell's fill) with each cell's border band
// painted by the fragment shader in the `band` colour, past BORDER_FROM of the way out
// (the `edge` attribute), its inner edge smoothed over a pixel.
function bandedMaterial() {
  const material = new THREE.MeshLambertMaterial({ vertexColors: true, side: THREE.DoubleSide });
  material.onBeforeCompile = (shader) => {
    shader.vertexShader = shader.vertexShader
      .replace("#include <common>", "#include <common>\nattribute vec3 band;\nattribute float edge;\nvarying vec3 vBand;\nvarying float vEdge;")
      .replace("#include <color_vertex>", "#include <color_vertex>\nvBand = band;\nvEdge = edge;");
    shader.fragmentShader = shader.fragmentShader
      .replace("#include <common>", "#include <common>\nvarying vec3 vBand;\nvarying float vEdge;")
      .replace("#include <color_fragment>", `#include <color_fragment>
        float border = smoothstep(${BORDER_FROM.toFixed(3)} - fwidth(vEdge), ${BORDER_FROM.toFixed(3)}, vEdge);
        diffuseColor.rgb = mix(diffuseColor.rgb, vBand, border);`);
  };
  return material;
}

/** Frees the geometries and materials of `object` and all in it. */
export function disposeTree(object) {
  object.traverse((o) => {
    if (o.geometry) o.geometry.dispose();
    if (o.material) o.material.dispose();
  });
}
