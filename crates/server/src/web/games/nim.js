// Nim: heaps as rows of counters. Clicking a counter takes it and every counter to its
// right, so the move leaves the counters to its left.
import { el, svgBox, moveTarget } from "../draw.js";

export function render(box, state, ctx) {
  const heaps = state.view.heaps;
  const widest = Math.max(1, ...heaps);
  const svg = svgBox([0, 0, 60 + widest * 28, heaps.length * 36], 12);
  heaps.forEach((size, h) => {
    const y = h * 36 + 14;
    svg.append(el("text", { x: 16, y }, `${h + 1}`));
    const counters = [];
    for (let k = 0; k < size; k++) {
      const c = el("circle", { class: "counter", cx: 50 + k * 28, cy: y, r: 11 },
        el("title", {}, `take ${size - k} from heap ${h + 1}`));
      moveTarget(c, `${h + 1}:${k}`, ctx);
      c.addEventListener("mouseenter", () => counters.slice(k).forEach((o) => o.classList.add("lit")));
      c.addEventListener("mouseleave", () => counters.forEach((o) => o.classList.remove("lit")));
      counters.push(c);
      svg.append(c);
    }
  });
  box.append(svg);
}
