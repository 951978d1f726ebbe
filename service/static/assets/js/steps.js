// The loop's transitions as they stream in. The governor's routine "go" decisions are left out; its stops are shown.
import { el } from "./elements.js";

const LABELS = {
  resolve: "Question", understand: "Understand", plan: "Plan", retrieve: "Search", evaluate: "Evaluate", refine: "Refine",
  synthesise: "Synthesise", verify: "Verify", respond: "Respond", governor: "Budget",
};

export function isShown(span) {
  return span.node !== "governor" || span.decision.startsWith("stop");
}

export function stepItem(span) {
  const hop = span.node === "retrieve" ? ` (hop ${span.usage.hops})` : "";
  return el("li", { testid: "step", class: `step node-${span.node}` },
    el("span", { class: "node" }, (LABELS[span.node] || span.node) + hop),
    el("span", { class: "decision" }, span.decision),
    span.reason ? el("span", { class: "reason" }, span.reason) : null);
}

// Open while the run streams; `done()` folds it away once the answer is there, keeping the steps one click off.
export class StepsView {
  constructor() {
    this.list = el("ol", { class: "steps", "aria-live": "polite" });
    this.summary = el("summary", {}, "Steps");
    this.node = el("details", { class: "steps-view", open: true }, this.summary, this.list);
  }

  add(span) {
    if (isShown(span)) this.list.append(stepItem(span));
  }

  done() {
    this.summary.textContent = `Steps (${this.list.children.length})`;
    this.node.open = false;
  }
}
