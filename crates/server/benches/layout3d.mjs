// Usage: node crates/server/benches/layout3d.mjs [REV]
// Times the 3D graph view's layout (`layout3d` of crates/server/src/web/graph3d.js, its
// stress majorization alone) on square-ish grids of 16 to 300 vertices, in the working
// tree and, given REV, as that commit had it, one after the other in one process (the
// fastest of five runs each, after a warm-up). The function is read out of the module's
// source: the module itself imports the page's DOM code, which Node does not have.
import { execSync } from "node:child_process";
import { readFileSync } from "node:fs";

const file = "crates/server/src/web/graph3d.js";
const seeded = (seed) => {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0; s ^= s >> 17; s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
};

/** `layout3d` of `source` up to its positions in space (before three.js takes them). */
function layoutOf(source) {
  const whole = source.match(/export function layout3d[\s\S]*?\n}\n/)[0];
  const body = `${whole.slice(0, whole.indexOf("  const vertices ="))}  return x;\n}\n`;
  return new Function("seeded", `${body.replace("export function", "function")}; return layout3d;`)(seeded);
}

function grid(rows, columns) {
  const pos = [];
  const edges = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      pos.push([c * 70, r * 70]);
      if (c + 1 < columns) edges.push([r * columns + c, r * columns + c + 1]);
      if (r + 1 < rows) edges.push([r * columns + c, (r + 1) * columns + c]);
    }
  }
  return [pos, edges];
}

const versions = [["working tree", layoutOf(readFileSync(file, "utf8"))]];
if (process.argv[2]) {
  const rev = process.argv[2];
  versions.push([rev, layoutOf(execSync(`git show ${rev}:${file}`).toString())]);
}
for (const [rows, columns] of [[4, 4], [10, 10], [15, 20]]) {
  const [pos, edges] = grid(rows, columns);
  const times = versions.map(([name, layout]) => {
    layout(pos, edges);
    let best = Infinity;
    for (let run = 0; run < 5; run++) {
      const start = performance.now();
      layout(pos, edges);
      best = Math.min(best, performance.now() - start);
    }
    return `${name} ${best.toFixed(1)} ms`;
  });
  console.log(`grid ${rows}x${columns} (${rows * columns} vertices): ${times.join(", ")}`);
}
