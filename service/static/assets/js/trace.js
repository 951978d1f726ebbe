// A run's trace: the budget it used against the deployment's limits, and a timeline of every transition.
import { el, uniqueId } from "./elements.js";

const seconds = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms} ms`);
const plain = (n) => n.toLocaleString("en");

// `budget` (sent with the trace) names each limit; a limit set in seconds has its usage in milliseconds.
function budgetBars(used, limits, budget) {
  const grid = el("div", { class: "budget", role: "group", "aria-label": "Budget used against the limits" });
  for (const { usage: key, label, unit } of budget) {
    const format = unit === "s" ? seconds : plain;
    const value = used[key];
    const limit = limits[key];
    const share = Math.min(1, value / limit);
    const id = uniqueId("budget");
    const fill = el("span");
    fill.style.width = `${share * 100}%`;
    grid.append(
      el("span", { id }, label),
      el("div", {
        class: share >= 1 ? "bar at-limit" : "bar", role: "meter", "aria-labelledby": id, "aria-valuemin": 0,
        "aria-valuemax": limit, "aria-valuenow": Math.min(value, limit),
        "aria-valuetext": `${format(value)} of ${format(limit)}`,
      }, fill),
      el("span", { class: "value" }, `${format(value)} / ${format(limit)}`));
  }
  return grid;
}

function timeline(spans) {
  const first = spans[0].start;
  const last = Math.max(...spans.map((s) => s.start + s.duration_ms / 1000));
  const total = Math.max(last - first, 1e-6);
  return el("ol", { class: "timeline", "aria-label": `${spans.length} transitions` }, spans.map((span) => {
    const bar = el("span", { class: "tl-bar" });
    bar.style.left = `${((span.start - first) / total) * 100}%`;
    bar.style.width = `${Math.max(((span.duration_ms / 1000) / total) * 100, 0.4)}%`;
    const reason = span.reason ? ` (${span.reason})` : "";
    return el("li", { class: `node-${span.node}` },
      el("span", { class: "tl-node" }, span.node),
      el("span", { class: "tl-track", "aria-hidden": "true" }, bar),
      el("span", { class: "tl-ms" }, `${span.duration_ms.toFixed(span.duration_ms < 10 ? 2 : 0)} ms`),
      el("span", { class: "tl-decision" }, span.decision + reason));
  }));
}

// A closed <details>; the trace is fetched (with `load`) the first time it is opened.
export function traceSection(load) {
  const body = el("div", { class: "trace-body" }, el("p", { class: "hint" }, "Loading the trace…"));
  const details = el("details", { class: "trace", testid: "trace" },
    el("summary", {}, "Trace: transitions and budget"), body);
  let loaded = false;
  details.addEventListener("toggle", async () => {
    if (!details.open || loaded) return;
    loaded = true;
    try {
      const trace = await load();
      body.replaceChildren(budgetBars(trace.spans[trace.spans.length - 1].usage, trace.limits, trace.budget),
        timeline(trace.spans));
    } catch (error) {
      loaded = false;
      body.replaceChildren(el("p", { class: "error" }, `The trace could not be loaded: ${error.message}`));
    }
  });
  return details;
}
