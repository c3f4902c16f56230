// Where a board's cells go in space, as plain numbers (no three.js here). A surface is a
// list of cell copies: each a polygon in the layout's own coordinates (a chart) and a map
// from the chart into space. A projective-plane board is drawn on the sphere, where every
// cell appears twice (antipodal copies), and on the projective plane itself, immersed as
// Boy's surface and mapped onto the cross-cap; torus and Klein bottle boards on a torus
// and on the figure-8 Klein bottle, whose maps are periodic exactly as the boards are
// glued. A projective plane
// pasted as faces is first cut open into a disk (projectiveDisk) and then drawn as a taylor
// board is. The manifold game's surfaces, which have no cells, are built here from the
// same maps (manifoldSurface).

const TAU = 2 * Math.PI;

const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const scale = (a, s) => [a[0] * s, a[1] * s, a[2] * s];
const lerp = (a, b, t) => add(a, scale(sub(b, a), t));
const length = (a) => Math.hypot(a[0], a[1], a[2]);
const normalize = (a) => scale(a, 1 / (length(a) || 1));
const negate = (a) => scale(a, -1);
const to3 = ([x, y]) => [x, y, 0];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/**
 * The surfaces a board can be shown on, best first: `{ name, title, convex, copies }` and
 * maybe a `note` to show with it and an `eye` (where it is best seen from), each copy
 * `{ cell, polygon, map }` and maybe `reach` (see tessellate) and `quiet` (no label).
 * Empty when neither the layout nor the board says where the cells lie (a board file; a
 * pasted board other than a projective plane).
 */
export function surfacesOf(layout, board) {
  const family = String(board).split(":")[0];
  if (layout.summands) return connectedSums(layout);
  if (layout.sphere) {
    return projectivePlane(layout.sphere.map((polygon, cell) => ({ cell, polygon })), normalize, "sphere");
  }
  if (family === "taylor" && layout.rim.length > 2) {
    const cells = layout.cells.map((shape, cell) => ({ cell, polygon: shape.pieces[0].map(to3) }));
    return projectivePlane(cells, diskToHemisphere(layout.rim), "boy");
  }
  const faces = pastedFaces(board);
  if (faces) {
    const disk = projectiveDisk(faces);
    if (!disk) return [];
    const cells = disk.cells.map((polygon, cell) => ({ cell, polygon: polygon.map(to3) }));
    return projectivePlane(cells, diskToHemisphere(disk.rim), "boy");
  }
  const size = gridSize(board);
  if (size) {
    const cells = layout.cells.map((shape, cell) => ({ cell, polygon: shape.pieces[0].map(to3) }));
    return [periodic(cells, ...size)];
  }
  return [];
}

/** The surfaces of `surfaces` (surfacesOf's) a 3D view offers a choice of: none of one. */
export const choicesOf = (surfaces) => (surfaces.length > 1 ? surfaces : []);

/** Whether the point `[x, y]` lies within `bounds` (`[min_x, min_y, max_x, max_y]`). */
export const within = ([x0, y0, x1, y1], [x, y]) => x >= x0 - 1e-6 && y >= y0 - 1e-6 && x <= x1 + 1e-6 && y <= y1 + 1e-6;

/** A torus or Klein bottle board's `[rows, columns, klein]`, or null for another board. */
function gridSize(board) {
  const size = /^(torus|klein):(\d+)[xX](\d+)$/.exec(String(board).trim());
  return size && [Number(size[2]), Number(size[3]), size[1] === "klein"];
}

/** A board pasted as JSON: its faces (vertex lists), or null. */
export function pastedFaces(board) {
  if (!String(board).trim().startsWith("{")) return null;
  try {
    const faces = JSON.parse(board).faces;
    return Array.isArray(faces) ? faces : null;
  } catch {
    return null;
  }
}

/**
 * A pasted projective plane (faces as vertex cycles, χ = 1) cut open into a disk, or null
 * for any other surface: `{ cells, rim }`, each cell's polygon in the plane and the rim,
 * whose point i is glued to point i + n/2 as on a taylor board. The cut runs along the
 * one loop that tree-cotree leaves (the fundamental cycle of the edge in neither the
 * vertex tree nor the face tree), which is one-sided, so the disk's rim is that loop
 * twice over; the disk is drawn by Tutte's method with its rim on a circle.
 */
export function projectiveDisk(faces) {
  const key = (a, b) => (a < b ? `${a} ${b}` : `${b} ${a}`);
  const sides = new Map(); // edge -> [[face, index of its first corner]...]
  faces.forEach((face, f) => face.forEach((v, i) => {
    const k = key(v, face[(i + 1) % face.length]);
    if (!sides.has(k)) sides.set(k, []);
    sides.get(k).push([f, i]);
  }));
  const vertices = [...new Set(faces.flat())];
  // Past this many cells the 3D view is not drawn anyway (surface.js, MAX_COPIES_3D).
  if (faces.length > 4000) return null;
  if (vertices.length - sides.size + faces.length !== 1 || [...sides.values()].some((s) => s.length !== 2)) return null;
  // A spanning tree of the vertices, then one of the faces across the other edges.
  const parent = new Map([[vertices[0], null]]);
  const neighbours = new Map(vertices.map((v) => [v, []]));
  for (const k of sides.keys()) {
    const [a, b] = k.split(" ").map(Number);
    neighbours.get(a).push(b);
    neighbours.get(b).push(a);
  }
  for (let queue = [vertices[0]], head = 0; head < queue.length; head++) {
    for (const w of neighbours.get(queue[head])) {
      if (!parent.has(w)) { parent.set(w, queue[head]); queue.push(w); }
    }
  }
  const inTree = (k) => { const [a, b] = k.split(" ").map(Number); return parent.get(a) === b || parent.get(b) === a; };
  const reached = new Set([0]);
  const cotree = new Set();
  for (let queue = [0], head = 0; head < queue.length; head++) {
    const f = queue[head];
    faces[f].forEach((v, i) => {
      const k = key(v, faces[f][(i + 1) % faces[f].length]);
      if (inTree(k)) return;
      for (const [g] of sides.get(k)) {
        if (!reached.has(g)) { reached.add(g); cotree.add(k); queue.push(g); }
      }
    });
  }
  const left = [...sides.keys()].filter((k) => !inTree(k) && !cotree.has(k));
  if (left.length !== 1 || reached.size !== faces.length) return null;
  // The loop: the leftover edge and the tree path between its ends.
  const [a, b] = left[0].split(" ").map(Number);
  const up = (v) => { const path = [v]; while (parent.get(path[path.length - 1]) !== null) path.push(parent.get(path[path.length - 1])); return path; };
  const [pa, pb] = [up(a), up(b)];
  const meet = pa.find((v) => pb.includes(v));
  const loop = [...pa.slice(0, pa.indexOf(meet) + 1), ...pb.slice(0, pb.indexOf(meet)).reverse()];
  const cut = new Set(loop.map((v, i) => key(v, loop[(i + 1) % loop.length])));
  // Faces oriented alike across every edge off the loop (the disk is orientable).
  const oriented = new Map([[0, faces[0]]]);
  for (let queue = [0], head = 0; head < queue.length; head++) {
    const face = oriented.get(queue[head]);
    face.forEach((v, i) => {
      const w = face[(i + 1) % face.length];
      if (cut.has(key(v, w))) return;
      for (const [g] of sides.get(key(v, w))) {
        if (oriented.has(g)) continue;
        const other = faces[g];
        const j = other.indexOf(v);
        // Across the side v-w, the neighbour runs w -> v.
        oriented.set(g, other[(j + other.length - 1) % other.length] === w ? other : [...other].reverse());
        queue.push(g);
      }
    });
  }
  if (oriented.size !== faces.length) return null;
  // The rim: walking the boundary half-edges (u -> v in an oriented face, u-v on the loop)
  // in turn; the corners passed on the way round v belong to v's copy on the rim there.
  const nextIn = (f, v) => { const face = oriented.get(f); return face[(face.indexOf(v) + 1) % face.length]; };
  const across = (f, v, w) => {
    const [g, h] = sides.get(key(v, w)).map(([face]) => face);
    return g === f ? h : g;
  };
  const corner = new Map(); // "face vertex" -> node of the disk
  const rimNodes = [];
  const startFace = sides.get(key(loop[0], loop[1])).map(([g]) => g)[0];
  let [f, u] = [startFace, oriented.get(startFace).indexOf(loop[0]) >= 0 && nextIn(startFace, loop[0]) === loop[1] ? loop[0] : loop[1]];
  const nodes = [];
  const node = () => { nodes.push(null); return nodes.length - 1; };
  for (let step = 0; step < 2 * loop.length; step++) {
    const v = nextIn(f, u);
    const copy = node();
    rimNodes.push(copy);
    // Round v from face f until the next boundary half-edge leaving v.
    let [g, w] = [f, nextIn(f, v)];
    corner.set(`${g} ${v}`, copy);
    while (!cut.has(key(v, w))) {
      g = across(g, v, w);
      corner.set(`${g} ${v}`, copy);
      w = nextIn(g, v);
    }
    [f, u] = [g, v];
  }
  if (f !== startFace) return null;
  const at = new Map(); // vertex off the loop -> node
  const nodeOf = (g, v) => corner.get(`${g} ${v}`) ?? at.get(v) ?? at.set(v, node()).get(v);
  const polygons = faces.map((_, g) => oriented.get(g).map((v) => nodeOf(g, v)));
  // Tutte: the rim on a circle, every other node at the mean of its neighbours.
  const n = rimNodes.length;
  const points = nodes.map(() => [0, 0]);
  rimNodes.forEach((p, i) => { points[p] = [Math.cos((Math.PI * 2 * i) / n), -Math.sin((Math.PI * 2 * i) / n)]; });
  const links = nodes.map(() => new Set());
  for (const polygon of polygons) polygon.forEach((p, i) => { const q = polygon[(i + 1) % polygon.length]; links[p].add(q); links[q].add(p); });
  const onRim = new Set(rimNodes);
  for (let round = 0; round < 500; round++) {
    for (let p = 0; p < nodes.length; p++) {
      if (onRim.has(p) || !links[p].size) continue;
      let [x, y] = [0, 0];
      for (const q of links[p]) { x += points[q][0]; y += points[q][1]; }
      points[p] = [x / links[p].size, y / links[p].size];
    }
  }
  return { cells: polygons.map((polygon) => polygon.map((p) => points[p])), rim: rimNodes.map((p) => points[p]) };
}

// What each model of a surface shows, under the view (as the Euler Getter app's guide
// explains its models).
const SPHERE_NOTE = "The sphere covers the projective plane twice: each cell is drawn twice, at opposite points, and a stone shows on both. A loop that cannot be shrunk to a point runs here from a cell to its opposite copy.";
const BOY_NOTE = "Boy's surface is the projective plane itself, each cell drawn once. It cannot sit in space without passing through itself: where its sheets cross, nothing is glued.";
const CROSSCAP_NOTE = "The cross-cap is a disk whose rim is sewn to itself, opposite points together, each cell drawn once. The seam crosses a line where the surface passes through itself: nothing is glued along that line.";
const KLEIN_NOTE = "The figure-8 Klein bottle, each cell drawn once. It passes through itself along a circle, where nothing is glued.";

// A projective-plane board given in a chart whose `toSphere` lands in the northern
// hemisphere, with antipodal points of the equator glued.
function projectivePlane(cells, toSphere, first) {
  const sphere = {
    name: "sphere",
    title: "Sphere",
    note: SPHERE_NOTE,
    convex: true,
    copies: cells.flatMap(({ cell, polygon }) => [
      { cell, polygon, map: toSphere },
      { cell, polygon, map: (p) => negate(toSphere(p)) },
    ]),
  };
  const immersed = (name, title, note, surface, evenOut) => {
    const map = immersion(surface, evenOut, toSphere);
    return { name, title, note, convex: false, copies: cells.map(({ cell, polygon }) => ({ cell, polygon, map })) };
  };
  const boy = immersed("boy", "Boy's surface", BOY_NOTE, boysSurface, evenOnBoy);
  const crosscap = immersed("crosscap", "Cross-cap", CROSSCAP_NOTE, crossCap, evenOnCrossCap);
  return first === "sphere" ? [sphere, boy, crosscap] : [boy, sphere, crosscap];
}

// The disk a taylor board's rim bounds laid on the northern hemisphere (azimuthal
// equidistant, as goldberg boards are drawn): a point goes as far out as it is towards the
// rim along its ray from the middle, at the angle of where that ray meets the rim, counted
// by the rim's length in vertices. Rim vertex i is glued to vertex i + n/2, so glued rim
// points go to antipodal points of the equator, which the sphere and Boy's surface glue.
function diskToHemisphere(rim) {
  const n = rim.length;
  const centre = to3(rim.reduce((s, p) => [s[0] + p[0] / n, s[1] + p[1] / n], [0, 0]));
  const corners = rim.map((p) => sub(to3(p), centre));
  // Seen from above (y up), the rim runs counterclockwise when its signed area is positive.
  const area = corners.reduce((s, a, i) => s + a[0] * -corners[(i + 1) % n][1] - corners[(i + 1) % n][0] * -a[1], 0);
  const sense = area > 0 ? 1 : -1;
  const start = Math.atan2(-corners[0][1], corners[0][0]);
  // Where the ray from the middle in direction d meets the rim: its distance, and how
  // many rim edges along (edge i, a fraction s of the way) from vertex 0.
  const meet = (d) => {
    let best = { distance: Infinity, along: 0 };
    corners.forEach((a, i) => {
      const e = sub(corners[(i + 1) % n], a);
      const det = -d[0] * e[1] + e[0] * d[1];
      if (Math.abs(det) < 1e-12) return;
      const t = (-a[0] * e[1] + e[0] * a[1]) / det;
      const s = (d[0] * a[1] - d[1] * a[0]) / det;
      if (t > 0 && s >= -1e-9 && s <= 1 + 1e-9 && t < best.distance) best = { distance: t, along: i + s };
    });
    return best;
  };
  return (p) => {
    const d = sub(p, centre);
    const r = length(d);
    if (r < 1e-12) return [0, 0, 1];
    const { distance, along } = meet(scale(d, 1 / r));
    const polar = Math.min(1, r / distance) * (Math.PI / 2);
    const azimuth = start + (sense * TAU * along) / n;
    return [Math.sin(polar) * Math.cos(azimuth), Math.sin(polar) * Math.sin(azimuth), Math.cos(polar)];
  };
}

// A rotation taking the chart's centre (the pole) to the axis of Boy's surface's
// three-fold symmetry, which meets the surface at its top.
const BOY_AXIS = normalize([1, 1, 1]);
const BOY_X = normalize([1, -1, 0]);
const BOY_Y = cross(BOY_AXIS, BOY_X);

// Boy's surface: a quartic polynomial map of the sphere with its three-fold symmetry. It
// takes antipodal points to the same place and has no pinch points (sampled, its area
// scale stays above a fifth of its mean), so it immerses the projective plane; unlike the
// conformal (Bryant-Kusner) parametrisation it does not shrink whole rings of cells.
function boysSurface(p) {
  const [x, y, z] = add(add(scale(BOY_X, p[0]), scale(BOY_Y, p[1])), scale(BOY_AXIS, p[2]));
  const s = x + y + z;
  return [
    (2 * x * x - y * y - z * z + 2 * y * z * (y * y - z * z) + z * x * (x * x - z * z) + x * y * (y * y - x * x)) / 2,
    (Math.sqrt(3) / 2) * (y * y - z * z + z * x * (z * z - x * x) + x * y * (y * y - x * x)),
    (s * (s ** 3 + 4 * (y - x) * (z - y) * (x - z))) / 8,
  ];
}

// The cross-cap standing upright: the chart's centre at the bottom of the bag, its seam
// along the z axis from 0 to 1, and its widest points at x = -1 and 1.
const crossCapUpright = ([a, b, c]) => [2 * a * c, 2 * b * c, a * a - c * c];

// The cross-cap: a quadratic map, so antipodal points go to the same place. The chart's
// centre goes to the bottom of a bag, and the rim, whose antipodal points are glued, to a
// segment across its mouth where the surface passes through itself, with a pinch point at
// either end. The bag is tipped back 60 degrees about the x axis, so that the view, which
// starts from above, sees its side and the segment along its top.
const CROSS_CAP_TILT = [Math.cos(Math.PI / 3), Math.sin(Math.PI / 3)];
const crossCap = (p) => {
  const [x, y, z] = crossCapUpright(p);
  const [cos, sin] = CROSS_CAP_TILT;
  return [x, y * cos + z * sin, z * cos - y * sin];
};

// The point of the unit sphere at `polar` from the north pole and `azimuth` round it.
const spherePoint = (polar, azimuth) => [Math.sin(polar) * Math.cos(azimuth), Math.sin(polar) * Math.sin(azimuth), Math.cos(polar)];

// Boy's surface spreads the sphere unevenly, its top (where the chart's centre goes) about
// 2.7 times as much as near the equator, and the cross-cap too: moving each point of the
// sphere to the polar angle that holds the same share of the surface's area as its own
// angle holds of the sphere's makes the cells of a ring about as large on the surface as
// on the sphere.
const evenOut = (surface) => {
  const steps = 90;
  const around = 24;
  const h = 1e-5;
  // The area the surface gives the band of the sphere up to each polar angle.
  const share = [0];
  for (let i = 0; i < steps; i++) {
    const polar = ((i + 0.5) / steps) * (Math.PI / 2);
    let stretch = 0;
    for (let k = 0; k < around; k++) {
      const azimuth = (k / around) * TAU;
      const p = surface(spherePoint(polar, azimuth));
      const a = sub(surface(spherePoint(polar + h, azimuth)), p);
      const b = sub(surface(spherePoint(polar, azimuth + h)), p);
      stretch += length(cross(a, b)) / (h * h) / around;
    }
    share.push(share[i] + stretch * (Math.PI / 2 / steps));
  }
  const total = share[steps];
  return (q) => {
    const p = q[2] < 0 ? negate(q) : q;
    const want = (1 - Math.min(1, p[2])) * total;
    let i = 0;
    while (i < steps - 1 && share[i + 1] < want) i++;
    const polar = ((i + (want - share[i]) / (share[i + 1] - share[i])) / steps) * (Math.PI / 2);
    return spherePoint(Math.min(polar, Math.PI / 2), Math.atan2(p[1], p[0]));
  };
};
const evenOnBoy = evenOut(boysSurface);
const evenOnCrossCap = evenOut(crossCap);

// A torus or Klein bottle board: rows of cells 3/2 apart, columns sqrt(3) apart in the
// layout, so the board repeats every `columns * sqrt(3)` across and `rows * 3/2` down;
// going once down a Klein bottle board mirrors it across x = 0.
function periodic(cells, rows, columns, klein) {
  const map = periodicMap(rows, columns, klein);
  return klein
    ? { name: "klein", title: "Klein bottle", note: KLEIN_NOTE, convex: false, copies: cells.map((c) => ({ ...c, map })) }
    : { name: "torus", title: "Torus", convex: false, copies: cells.map((c) => ({ ...c, map })) };
}

// A torus round the z axis, its ring 1 across and its tube TORUS_TUBE: `u` the angle round
// the ring, `v` round the tube (0 outermost, pi/2 on top).
const TORUS_TUBE = 0.45;
const torusPoint = (u, v) => {
  const ring = 1 + TORUS_TUBE * Math.cos(v);
  return [ring * Math.cos(u), ring * Math.sin(u), TORUS_TUBE * Math.sin(v)];
};

// The map of periodic(): a torus, or the figure-8 Klein bottle.
function periodicMap(rows, columns, klein) {
  const width = columns * Math.sqrt(3);
  const height = rows * 1.5;
  const angles = ([x, y]) => [TAU * (x / width), TAU * (y / height)];
  const torus = (p) => torusPoint(...angles(p));
  // The figure-8 immersion: f(u + 2pi, v) = f(u, -v), with u running down the board.
  const figure8 = (p) => {
    const [v, u] = angles(p);
    const tube = 0.35;
    const ring = 1.2 + tube * (Math.cos(u / 2) * Math.sin(v) - Math.sin(u / 2) * Math.sin(2 * v));
    const up = tube * (Math.sin(u / 2) * Math.sin(v) + Math.cos(u / 2) * Math.sin(2 * v));
    return [ring * Math.cos(u), ring * Math.sin(u), up];
  };
  return klein ? figure8 : torus;
}

// How far apart the boards of a connected sum stand (each is scaled to about radius 1), how
// many pieces each third of a tube is drawn in along its length, and how many points its
// middle line is followed by.
const SUM_SPACING = 2.8;
const TUBE_SEGMENTS = 10;
const TUBE_STEPS = 48;

const SUM_NOTE = "A connected sum: each board on its own surface, and a tube from the first board to each other one. The three cells around each end of a tube run through it, as three strips. On the disk the boards are drawn flat, a numbered ring where a tube leaves each (the number is the board at its other end), and those cells on both boards: dashed on the second, with the first board's names.";

// A connected sum's views: its projective planes on Boy's surface, then on the cross-cap,
// as a lone projective plane is offered (one view when it has none). Each view's copies are
// worked out when it is first shown: on a large sum that takes a tenth of a second.
function connectedSums(layout) {
  const view = (name, title, projective, evenOutProjective) => {
    let copies = null;
    return {
      name, title, convex: false, note: SUM_NOTE,
      // Seen from the front and above, so that the tubes' arches show.
      eye: [0.1, -0.8, 0.55],
      get copies() {
        copies ??= connectedSum(layout, projective, evenOutProjective);
        return copies;
      },
    };
  };
  if (layout.summands.every((summand) => gridSize(summand.board))) return [view("sum", "Connected sum", boysSurface, evenOnBoy)];
  return [view("sum", "Boy's surface", boysSurface, evenOnBoy), view("sum-crosscap", "Cross-cap", crossCap, evenOnCrossCap)];
}

// A connected sum (the layout's summands and tubes): each board on its own surface (a
// projective plane immersed by `projective`, a torus, a Klein bottle) in a row, each
// turned so that its tubes' mouths face up, and each tube an arch from the first board to
// a later one. The three cells through a tube run along it as three strips, so that each
// cell is seen to go on from one board to the other; the strips carry no labels. Answers
// the copies.
function connectedSum(layout, projective, evenOutProjective) {
  const boards = layout.summands.map((summand, k) => {
    const cells = [];
    layout.cells.forEach((shape, cell) => {
      for (const piece of shape.pieces) {
        if (piece.every((p) => within(summand.bounds, p))) cells.push({ cell, polygon: piece.map(([x, y]) => [x - summand.offset[0], y - summand.offset[1], 0]) });
      }
    });
    const size = gridSize(summand.board);
    const map = size ? periodicMap(...size) : immersion(projective, evenOutProjective, diskToHemisphere(summand.rim));
    // Its middle and size, from at most about 2,000 cells (a large board would take long).
    const stride = Math.ceil(cells.length / 2000);
    const points = cells.filter((_, i) => i % stride === 0).flatMap(({ polygon }) => polygon.map(map));
    const centre = scale(points.reduce(add, [0, 0, 0]), 1 / points.length);
    // Its size: the root mean square distance from its middle (Boy's surface's three lobes
    // reach far out, and scaled by them it looked small beside a torus).
    const radius = Math.sqrt(points.reduce((sum, p) => sum + length(sub(p, centre)) ** 2, 0) / points.length) || 1;
    return { cells, map, points, centre, radius, offset: summand.offset, at: [k * SUM_SPACING, 0, 0] };
  });
  const mouths = layout.tubes.map((tube) => tube.summands.map((board, end) => mouth(boards[board], tube.cells, tube.at[end])));
  // Each board turned about its middle so that the mean of its mouths' normals points up,
  // then about the vertical so that it is widest across the row, where the view (from the
  // front) sees its broad side: a torus standing on edge shows its hole.
  boards.forEach((board, k) => {
    const up = mouths.flat().filter((_, i) => layout.tubes[Math.floor(i / 2)].summands[i % 2] === k)
      .reduce((sum, m) => add(sum, m.normal), [0, 0, 0]);
    const tilt = turnTo(normalize(up), [0, 0, 1]);
    const [xx, yy, xy] = board.points.map((p) => tilt(sub(p, board.centre)))
      .reduce(([a, b, c], [x, y]) => [a + x * x, b + y * y, c + x * y], [0, 0, 0]);
    const widest = 0.5 * Math.atan2(2 * xy, xx - yy);
    const [cos, sin] = [Math.cos(widest), Math.sin(widest)];
    board.turn = (p) => {
      const [x, y, z] = tilt(p);
      return [x * cos + y * sin, y * cos - x * sin, z];
    };
  });
  const place = (board, p) => add(scale(board.turn(sub(p, board.centre)), 1 / board.radius), board.at);
  const placed = (board, m) => ({
    vertex: place(board, m.vertex),
    normal: board.turn(m.normal),
    centres: m.centres.map((c) => place(board, c)),
  });
  const copies = boards.flatMap((board) => board.cells.map(({ cell, polygon }) => ({ cell, polygon, map: (p) => place(board, board.map(p)) })));
  layout.tubes.forEach((tube, t) => {
    const [a, b] = tube.summands.map((board, end) => placed(boards[board], mouths[t][end]));
    copies.push(...tubeCopies(tube.cells, a, b));
  });
  return copies;
}

// A projective plane given in a chart whose `toSphere` lands on the sphere, immersed as
// `surface` with its cells evened out.
const immersion = (surface, evenOut, toSphere) => (p) => surface(evenOut(toSphere(p)));

// Where a tube leaves a board (before the board is turned and placed): the vertex its
// three cells surround (drawn at `at` on the disk), a normal of the surface there
// (pointing away from the board's middle) and the middles of the cells' pieces nearest to
// it.
function mouth(board, tubeCells, at) {
  const vertex = board.map([at[0] - board.offset[0], at[1] - board.offset[1], 0]);
  const centres = tubeCells.map((cell) => board.cells
    .filter((c) => c.cell === cell)
    .map((c) => scale(c.polygon.map(board.map).reduce(add, [0, 0, 0]), 1 / c.polygon.length))
    .reduce((best, c) => (length(sub(c, vertex)) < length(sub(best, vertex)) ? c : best)));
  let normal = normalize(cross(sub(centres[1], centres[0]), sub(centres[2], centres[0])));
  if (dot(normal, sub(vertex, board.centre)) < 0) normal = negate(normal);
  return { vertex, normal, centres };
}

const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

// A rotation taking the unit vector `from` to the unit vector `to` (Rodrigues' formula).
function turnTo(from, to) {
  const axis = cross(from, to);
  const cos = dot(from, to);
  if (cos < -1 + 1e-9) return ([x, y, z]) => [x, -y, -z];
  return (p) => add(add(scale(p, cos), cross(axis, p)), scale(axis, dot(axis, p) / (1 + cos)));
}

// The copies of a tube from mouth `a` to mouth `b` (placed): a cubic arch leaving each
// mouth along its normal, flared where it meets the boards, cut along its length into
// three strips, strip i the cell `cells[i]`. Each strip starts and ends between the
// directions of its cell's neighbours around the mouth, so that it meets its own cell on
// both boards; the circle's sense is the same at both ends (else the tube leaves the
// second board from its other side, as an orientation-reversing handle must).
function tubeCopies(cells, a, b) {
  let tube = arch(a, b, false);
  if (!tube) tube = arch(a, b, true);
  const { spine, u, v, radius, strips } = tube;
  const at = (t) => {
    const f = Math.min(t * TUBE_STEPS, TUBE_STEPS - 1e-9);
    const i = Math.floor(f);
    const w = f - i;
    return [spine, u, v].map((line) => lerp(line[i], line[i + 1], w));
  };
  return cells.flatMap((cell, i) => {
    const map = ([s, t]) => {
      const [centre, across, up] = at(t);
      const angle = strips(t, i, s);
      return add(centre, scale(add(scale(across, Math.cos(angle)), scale(up, Math.sin(angle))), radius(t)));
    };
    const pieces = [];
    for (let j = 0; j < TUBE_SEGMENTS; j++) {
      const [t0, t1] = [j / TUBE_SEGMENTS, (j + 1) / TUBE_SEGMENTS];
      const side = [0, 0.25, 0.5, 0.75, 1];
      const polygon = [...side.map((s) => [s, t0, 0]), ...side.reverse().map((s) => [s, t1, 0])];
      pieces.push({ cell, polygon, map, reach: alongSides, quiet: true });
    }
    return pieces;
  });
}

// A tube's middle line from `a` to `b`, TUBE_STEPS + 1 points evenly spaced along it: a
// Catmull-Rom spline that leaves each end along its normal (`aOut`, `bOut`) and passes
// above the boards between (each is about 1 high and centred at height 0).
function archLine(a, aOut, b, bOut) {
  const stub = 0.3;
  const top = Math.max(a[2], b[2], 1.2) + 0.4 + 0.15 * length(sub(a, b));
  const middle = lerp(a, b, 0.5);
  middle[2] = top;
  const through = [
    sub(a, scale(aOut, stub)), a, add(a, scale(aOut, stub)), middle,
    add(b, scale(bOut, stub)), b, sub(b, scale(bOut, stub)),
  ];
  const dense = [];
  for (let k = 1; k + 2 < through.length; k++) {
    const [p0, p1, p2, p3] = through.slice(k - 1, k + 3);
    for (let i = 0; i < 40; i++) {
      const t = i / 40;
      const [t2, t3] = [t * t, t * t * t];
      dense.push(scale(add(add(scale(p1, 2), scale(sub(p2, p0), t)),
        add(scale(add(sub(scale(p0, 2), scale(p1, 5)), sub(scale(p2, 4), p3)), t2),
          scale(add(sub(scale(p1, 3), p0), sub(p3, scale(p2, 3))), t3))), 0.5));
    }
  }
  dense.push(b);
  const along = [0];
  for (let i = 1; i < dense.length; i++) along.push(along[i - 1] + length(sub(dense[i], dense[i - 1])));
  const total = along[along.length - 1];
  const spine = [];
  let j = 0;
  for (let i = 0; i <= TUBE_STEPS; i++) {
    const want = (total * i) / TUBE_STEPS;
    while (j < dense.length - 2 && along[j + 1] < want) j++;
    const w = (want - along[j]) / (along[j + 1] - along[j] || 1);
    spine.push(lerp(dense[j], dense[j + 1], Math.min(1, Math.max(0, w))));
  }
  return spine;
}

// How far a point of a tube's strip lies from its middle line towards its sides (the
// cells' borders run along the strips, not across them).
const alongSides = ([s]) => Math.abs(2 * s - 1);

// The tube's middle line, a frame along it (turned as little as can be), its radius and
// where each strip lies round it, from mouth `a` to mouth `b` (entered from the other side
// when `flip`); null when the cells go round the two mouths in opposite senses.
function arch(a, b, flip) {
  const bNormal = flip ? negate(b.normal) : b.normal;
  const spine = archLine(a.vertex, a.normal, b.vertex, bNormal);
  const tangents = spine.map((_, i) => normalize(sub(spine[Math.min(i + 1, TUBE_STEPS)], spine[Math.max(i - 1, 0)])));
  const flat = (d, tangent) => normalize(sub(d, scale(tangent, dot(d, tangent))));
  const u = [flat(sub(a.centres[0], a.vertex), tangents[0])];
  for (let i = 1; i <= TUBE_STEPS; i++) u.push(flat(u[i - 1], tangents[i]));
  const v = u.map((across, i) => cross(tangents[i], across));
  // The cells' directions round each mouth, as angles in the frame there.
  const angles = (m, i) => m.centres.map((c) => {
    const d = sub(c, m.vertex);
    return Math.atan2(dot(d, v[i]), dot(d, u[i]));
  });
  const wrap = (x) => x - TAU * Math.round(x / TAU);
  const ends = [angles(a, 0), angles(b, TUBE_STEPS)].map((around) => {
    const sense = Math.sign(wrap(around[1] - around[0])) || 1;
    const gap = (from, to) => (((sense * (to - from)) % TAU) + TAU) % TAU;
    // Between cell i and cell i + 1, and strip i from the one before it to that.
    const between = around.map((angle, i) => angle + (sense * gap(angle, around[(i + 1) % 3])) / 2);
    return { sense, start: between[2], widths: between.map((end, i) => gap(between[(i + 2) % 3], end)) };
  });
  const [from, to] = ends;
  if (from.sense !== to.sense) return flip ? { ...fallback(from), spine, u, v, radius: radiusOf(a, b) } : null;
  const turn = wrap(to.start - from.start);
  const strips = (t, i, s) => {
    const widths = from.widths.map((w, k) => w + (to.widths[k] - w) * t);
    const before = widths.slice(0, i).reduce((sum, w) => sum + w, 0);
    return from.start + turn * t + from.sense * (before + s * widths[i]);
  };
  return { spine, u, v, radius: radiusOf(a, b), strips };
}

// Strips as they leave mouth `from`, kept the same all along (when the senses differ both
// ways round, which a tube cannot show without crossing its strips).
const fallback = (from) => ({
  strips: (t, i, s) => from.start + from.sense * (from.widths.slice(0, i).reduce((sum, w) => sum + w, 0) + s * from.widths[i]),
});

// A tube's radius a fraction `t` along: a fifth of its cells' reach from the mouths (at
// most a tenth of a board's size), flared where it meets the boards.
function radiusOf(a, b) {
  const reach = (m) => m.centres.reduce((sum, c) => sum + length(sub(c, m.vertex)), 0) / 3;
  const [ra, rb] = [reach(a), reach(b)].map((r) => 0.22 * r);
  return (t) => Math.min(0.1, ra + (rb - ra) * t) * (1 + 0.7 * (Math.exp(-t / 0.05) + Math.exp(-(1 - t) / 0.05)));
}

/** Where a cell's border band begins: this fraction of the way from its centre to its sides. */
export const BORDER_FROM = 0.9;

/**
 * Triangles for every copy: a fan around the polygon's centre split `k` times along each
 * spoke. Each vertex carries how far out it lies (`edges`: 0 at the centre, 1 on the
 * sides, or as the copy's own `reach(point)` says), which the view's shader turns into the
 * border band past BORDER_FROM (outlines, highlights): a band of triangles of its own would
 * triple what a software renderer draws (goldberg:8, k = 1: 6 triangles a hexagon instead
 * of 18).
 * Returns flat arrays and, per copy, its vertex range (the centre first), triangle range,
 * centre, three corners of its inner polygon a third of the way round from each other (to
 * measure its size on screen) and the radius of a sphere about its centre holding it.
 */
export function tessellate(copies, k) {
  const positions = [];
  const edges = [];
  const index = [];
  const out = copies.map(({ cell, polygon, map, reach }) => {
    const n = polygon.length;
    const centre = scale(polygon.reduce(add, [0, 0, 0]), 1 / n);
    const vertex = (p, out) => {
      positions.push(...map(p));
      edges.push(reach ? reach(p) : out);
      return positions.length / 3 - 1;
    };
    const start = positions.length / 3;
    const trisStart = index.length / 3;
    // rings[j][s]: ring j of the fan (j / k of the way out), step s around it. How far out
    // a point lies is linear across each triangle (all lie in one sector of the fan), so
    // the shader's band ends exactly on the inner polygon.
    const rings = [[vertex(centre, 0)]];
    for (let j = 1; j <= k; j++) {
      const ring = [];
      for (let i = 0; i < n; i++) {
        for (let s = 0; s < j; s++) {
          ring.push(vertex(lerp(centre, lerp(polygon[i], polygon[(i + 1) % n], s / j), j / k), j / k));
        }
      }
      rings.push(ring);
    }
    for (let j = 1; j <= k; j++) {
      const [a, b] = [rings[j - 1], rings[j]];
      for (let i = 0; i < n; i++) {
        for (let s = 0; s < j; s++) {
          const outer = i * j + s;
          const near = (i * (j - 1) + s) % Math.max(a.length, 1);
          index.push(a[near], b[outer], b[(outer + 1) % b.length]);
          if (s < j - 1) index.push(a[near], b[outer + 1], a[(near + 1) % a.length]);
        }
      }
    }
    const points = [];
    for (let v = start; v < positions.length / 3; v++) points.push(positions.slice(3 * v, 3 * v + 3));
    const middle = map(centre);
    return {
      cell,
      vertices: [start, positions.length / 3 - start],
      tris: [trisStart, index.length / 3 - trisStart],
      centre: middle,
      corners: [0, 1, 2].map((third) => map(lerp(centre, polygon[Math.floor((third * n) / 3)], BORDER_FROM))),
      radius: Math.max(...points.map((p) => length(sub(p, middle)))),
    };
  });
  return { positions: new Float32Array(positions), edges: new Float32Array(edges), index: new Uint32Array(index), copies: out };
}

/**
 * Points along the surface from the centre of copy `a` to the centre of the neighbouring
 * copy `b`, through the middle of the side they share: each half is drawn in its own
 * copy's chart and mapped, so that it lies on the surface (a chord between the centres
 * would cut under it). Without a shared side, the chord.
 */
export function surfacePath(a, b, steps = 4) {
  const centre = ({ polygon }) => scale(polygon.reduce(add, [0, 0, 0]), 1 / polygon.length);
  const near = (p, q) => length(sub(p, q)) < 1e-6 * (1 + length(p));
  const shared = (from, to) => {
    const corners = to.polygon.map(to.map);
    return from.polygon.filter((p) => corners.some((q) => near(from.map(p), q)));
  };
  const mine = shared(a, b);
  const theirs = shared(b, a);
  // Across the middle of a shared side, or through a shared corner (cells of a region
  // loop may meet at a corner only); cells apart are joined straight.
  if (!mine.length || mine.length !== theirs.length) return [a.map(centre(a)), b.map(centre(b))];
  const half = (copy, corners, reverse) => {
    const middle = corners.length > 1 ? lerp(corners[0], corners[1], 0.5) : corners[0];
    const points = [];
    for (let i = 0; i <= steps; i++) points.push(copy.map(lerp(centre(copy), middle, i / steps)));
    return reverse ? points.reverse() : points;
  };
  return [...half(a, mine, false), ...half(b, theirs, true).slice(1)];
}


// The manifold game's surfaces (games/manifold.js), drawn as its flat sketches are: the
// handles and crosscaps of a form in a row along x, a torus lying flat per handle and an
// upright cross-cap per crosscap (its seam on top), each joined to the next by a short
// tube along the row; a surface without either is the sphere.
const CROSS_CAP_SIZE = 1.2;
const FEATURE_WIDTH = { handle: 2 * (1 + TORUS_TUBE), crosscap: 2 * CROSS_CAP_SIZE };
const JOIN = { length: 0.7, radius: 0.22, into: 0.15 };
const SPHERE_RADIUS = 1.2;
// Where a curve through a cross-cap meets the rim of its chart, as an angle round it:
// away from the x axis, where its tubes leave, and from the y axis, whose rim point is a
// pinch point. A one-sided curve goes from such a rim point to the opposite one through
// a point of the chart on the bag's front, so that most of it faces the eye.
const RIM_AZIMUTH = Math.PI / 3;
const ONE_SIDED = { azimuth: -0.5, through: [0, -Math.sin(1), Math.cos(1)] };

/** How long the row of a surface with `features` handles and crosscaps (of `crosscaps`) is. */
export function rowLength(features, crosscaps) {
  if (features === 0) return 2 * SPHERE_RADIUS;
  const handles = features - crosscaps;
  return handles * FEATURE_WIDTH.handle + crosscaps * FEATURE_WIDTH.crosscap + (features - 1) * JOIN.length;
}

/**
 * A surface of the manifold game in `form` (manifold.js's: its handles, then its
 * crosscaps, and maybe the curve `cut`), centred on the origin: `parts`, each a grid of
 * points and its triangles (`{ positions, index }`), and `curves`, each the points of a
 * closed curve on the surface: a ring round a handle's hole (`ring`), round the tube after
 * so many features (`after`, separating), through one crosscap's seam (`one`) or through
 * two side by side (`two`, out along the tube between them and back).
 */
export function manifoldSurface({ handles, crosscaps, cut }) {
  const kinds = [...Array(handles).fill("handle"), ...Array(crosscaps).fill("crosscap")];
  if (!kinds.length) {
    return { parts: [grid((s, t) => scale(spherePoint(s * Math.PI, t * TAU), SPHERE_RADIUS), 24, 48)], curves: [] };
  }
  let x = -rowLength(kinds.length, crosscaps) / 2;
  const centres = kinds.map((kind) => {
    const centre = x + FEATURE_WIDTH[kind] / 2;
    x += FEATURE_WIDTH[kind] + JOIN.length;
    return centre;
  });
  const crossCapAt = (i) => (p) => add(scale(crossCapUpright(p), CROSS_CAP_SIZE), [centres[i], 0, 0]);
  const chart = (s, t) => spherePoint((s * Math.PI) / 2, t * TAU);
  const parts = kinds.map((kind, i) => (kind === "handle"
    ? grid((s, t) => add(torusPoint(t * TAU, s * TAU), [centres[i], 0, 0]), 24, 64)
    : grid((s, t) => crossCapAt(i)(chart(s, t)), 24, 64)));
  const joins = centres.slice(1).map((centre, i) => [
    centres[i] + FEATURE_WIDTH[kinds[i]] / 2 - JOIN.into,
    centre - FEATURE_WIDTH[kinds[i + 1]] / 2 + JOIN.into,
  ]);
  for (const [from, to] of joins) {
    parts.push(grid((s, t) => [from + s * (to - from), JOIN.radius * Math.cos(t * TAU), JOIN.radius * Math.sin(t * TAU)], 4, 24));
  }
  const circle = (point, steps = 64) => Array.from({ length: steps }, (_, k) => point((k / steps) * TAU));
  let curves = [];
  if (cut && "ring" in cut) {
    curves = [circle((u) => add(torusPoint(u, Math.PI / 2), [centres[cut.ring], 0, 0]))];
  } else if (cut && "after" in cut) {
    const [from, to] = joins[cut.after - 1];
    curves = [circle((a) => [(from + to) / 2, JOIN.radius * Math.cos(a), JOIN.radius * Math.sin(a)], 32)];
  } else if (cut && "one" in cut) {
    const rim = spherePoint(Math.PI / 2, ONE_SIDED.azimuth);
    const map = crossCapAt(cut.one);
    curves = [[...arc(map, rim, ONE_SIDED.through, 32), ...arc(map, ONE_SIDED.through, negate(rim), 32)]];
  } else if (cut && "two" in cut) {
    curves = [throughTwo(cut.two, crossCapAt(cut.two), crossCapAt(cut.two + 1))];
  }
  return { parts, curves: curves.map(withoutRepeats) };
}

// The two-sided curve through cross-caps `i` and `i + 1` (maps from their charts): along
// the top of the tube between them, into the second from where the tube meets it, through
// its seam (a rim point of its chart and then the opposite one) and back to the tube's
// bottom, along it to the first, and through the first's seam back to the start.
function throughTwo(i, first, second) {
  // Chart points where a cross-cap meets the tube's top or bottom line (`side` -1 on its
  // left, 1 on its right): the map takes polar angle pi/4 + d to height sin 2d.
  const d = Math.asin(JOIN.radius / CROSS_CAP_SIZE) / 2;
  const mouth = (side, up) => {
    const polar = Math.PI / 4 + up * d;
    return [side * Math.sin(polar), 0, Math.cos(polar)];
  };
  const rim = spherePoint(Math.PI / 2, RIM_AZIMUTH);
  const through = (map, side, into, out) => [...arc(map, mouth(side, into), rim), ...arc(map, negate(rim), mouth(side, out))];
  const line = (from, to, height, steps = 8) => Array.from({ length: steps + 1 }, (_, k) => [from + ((to - from) * k) / steps, 0, height]);
  const [a, b] = [first(mouth(1, 1))[0], second(mouth(-1, 1))[0]];
  return [
    ...line(a, b, JOIN.radius),
    ...through(second, -1, 1, -1),
    ...line(b, a, -JOIN.radius),
    ...through(first, 1, -1, 1),
  ];
}

// Points mapped by `map` along the arc of the chart's sphere from `p` to `q` (less than
// half a great circle).
const arc = (map, p, q, steps = 24) => Array.from({ length: steps + 1 }, (_, k) => map(normalize(lerp(p, q, k / steps))));

// A closed curve's points without one that repeats the one before it (where a curve goes
// through a seam, or where its pieces meet), nor a last that repeats the first.
function withoutRepeats(points) {
  const near = (p, q) => length(sub(p, q)) < 1e-6;
  const kept = points.filter((p, k) => k === 0 || !near(p, points[k - 1]));
  while (kept.length > 1 && near(kept[kept.length - 1], kept[0])) kept.pop();
  return kept;
}

// The points `map(s, t)` of a grid (`rows` by `columns` squares of [0, 1]²), as flat
// arrays of positions and triangles.
function grid(map, rows, columns) {
  const positions = [];
  const index = [];
  for (let i = 0; i <= rows; i++) {
    for (let j = 0; j <= columns; j++) positions.push(...map(i / rows, j / columns));
  }
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < columns; j++) {
      const [a, b] = [i * (columns + 1) + j, (i + 1) * (columns + 1) + j];
      index.push(a, b, a + 1, a + 1, b, b + 1);
    }
  }
  return { positions: new Float32Array(positions), index: new Uint32Array(index) };
}
