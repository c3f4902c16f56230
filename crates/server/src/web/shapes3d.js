// Where a board's cells go in space, as plain numbers (no three.js here). A surface is a
// list of cell copies: each a polygon in the layout's own coordinates (a chart) and a map
// from the chart into space. A projective-plane board is drawn on the sphere, where every
// cell appears twice (antipodal copies), and on Boy's surface, an immersion of the
// projective plane itself; torus and Klein bottle boards on a torus and on the figure-8
// Klein bottle, whose maps are periodic exactly as the boards are glued.

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
 * The surfaces a board can be shown on, best first: `{ name, title, convex, copies }`,
 * each copy `{ cell, polygon, map }`. Empty when the layout says too little (a pasted
 * board: cells in rings, no gluing).
 */
export function surfacesOf(layout, board) {
  const family = String(board).split(":")[0];
  if (layout.sphere) {
    return projectivePlane(layout.sphere.map((polygon, cell) => ({ cell, polygon })), normalize, "sphere");
  }
  if (family === "taylor" && layout.rim.length > 2) {
    const cells = layout.cells.map((shape, cell) => ({ cell, polygon: shape.pieces[0].map(to3) }));
    return projectivePlane(cells, diskToHemisphere(layout.rim), "boy");
  }
  const size = /^(torus|klein):(\d+)[xX](\d+)$/.exec(String(board).trim());
  if (size) {
    const cells = layout.cells.map((shape, cell) => ({ cell, polygon: shape.pieces[0].map(to3) }));
    return [periodic(cells, Number(size[2]), Number(size[3]), size[1] === "klein")];
  }
  return [];
}

// A projective-plane board given in a chart whose `toSphere` lands in the northern
// hemisphere, with antipodal points of the equator glued.
function projectivePlane(cells, toSphere, first) {
  const sphere = {
    name: "sphere",
    title: "Sphere",
    convex: true,
    copies: cells.flatMap(({ cell, polygon }) => [
      { cell, polygon, map: toSphere },
      { cell, polygon, map: (p) => negate(toSphere(p)) },
    ]),
  };
  const boy = {
    name: "boy",
    title: "Boy's surface",
    convex: false,
    copies: cells.map(({ cell, polygon }) => ({ cell, polygon, map: (p) => boysSurface(evenOut(toSphere(p))) })),
  };
  return first === "sphere" ? [sphere, boy] : [boy, sphere];
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

// Boy's surface spreads the sphere unevenly, its top (where the chart's centre goes) about
// 2.7 times as much as near the equator: moving each point of the sphere to the polar angle
// that holds the same share of Boy's area as its own angle holds of the sphere's makes the
// cells of a ring about as large on Boy's surface as on the sphere.
const evenOut = (() => {
  const steps = 90;
  const around = 24;
  const at = (polar, azimuth) => [Math.sin(polar) * Math.cos(azimuth), Math.sin(polar) * Math.sin(azimuth), Math.cos(polar)];
  const h = 1e-5;
  // The area Boy's surface gives the band of the sphere up to each polar angle.
  const share = [0];
  for (let i = 0; i < steps; i++) {
    const polar = ((i + 0.5) / steps) * (Math.PI / 2);
    let stretch = 0;
    for (let k = 0; k < around; k++) {
      const azimuth = (k / around) * TAU;
      const p = boysSurface(at(polar, azimuth));
      const a = sub(boysSurface(at(polar + h, azimuth)), p);
      const b = sub(boysSurface(at(polar, azimuth + h)), p);
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
    return at(Math.min(polar, Math.PI / 2), Math.atan2(p[1], p[0]));
  };
})();

// A torus or Klein bottle board: rows of cells 3/2 apart, columns sqrt(3) apart in the
// layout, so the board repeats every `columns * sqrt(3)` across and `rows * 3/2` down;
// going once down a Klein bottle board mirrors it across x = 0.
function periodic(cells, rows, columns, klein) {
  const width = columns * Math.sqrt(3);
  const height = rows * 1.5;
  const angles = ([x, y]) => [TAU * (x / width), TAU * (y / height)];
  const torus = (p) => {
    const [u, v] = angles(p);
    const ring = 1 + 0.45 * Math.cos(v);
    return [ring * Math.cos(u), ring * Math.sin(u), 0.45 * Math.sin(v)];
  };
  // The figure-8 immersion: f(u + 2pi, v) = f(u, -v), with u running down the board.
  const figure8 = (p) => {
    const [v, u] = angles(p);
    const tube = 0.35;
    const ring = 1.2 + tube * (Math.cos(u / 2) * Math.sin(v) - Math.sin(u / 2) * Math.sin(2 * v));
    const up = tube * (Math.sin(u / 2) * Math.sin(v) + Math.cos(u / 2) * Math.sin(2 * v));
    return [ring * Math.cos(u), ring * Math.sin(u), up];
  };
  return klein
    ? { name: "klein", title: "Klein bottle", convex: false, copies: cells.map((c) => ({ ...c, map: figure8 })) }
    : { name: "torus", title: "Torus", convex: false, copies: cells.map((c) => ({ ...c, map: torus })) };
}

/** Where a cell's border band begins: this fraction of the way from its centre to its sides. */
export const BORDER_FROM = 0.9;

/**
 * Triangles for every copy: a fan around the polygon's centre split `k` times along each
 * spoke. Each vertex carries how far out it lies (`edges`: 0 at the centre, 1 on the
 * sides), which the view's shader turns into the border band past BORDER_FROM (outlines,
 * highlights): a band of triangles of its own would triple what a software renderer draws
 * (goldberg:8, k = 1: 6 triangles a hexagon instead of 18).
 * Returns flat arrays and, per copy, its vertex range (the centre first), triangle range,
 * centre, three corners of its inner polygon a third of the way round from each other (to
 * measure its size on screen) and the radius of a sphere about its centre holding it.
 */
export function tessellate(copies, k) {
  const positions = [];
  const edges = [];
  const index = [];
  const out = copies.map(({ cell, polygon, map }) => {
    const n = polygon.length;
    const centre = scale(polygon.reduce(add, [0, 0, 0]), 1 / n);
    const vertex = (p, reach) => {
      positions.push(...map(p));
      edges.push(reach);
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

