// The outcome of a run in words: answered, abstained or fallback; complete, or incomplete and why; what it spent.
import { el } from "./elements.js";

const STATUS = { answered: "Answered", abstained: "Abstained", fallback: "Fallback" };
const LIMITS = {
  hops: "the hop limit", tokens: "the token limit", time: "the time limit", retrieval_calls: "the search limit",
};

function count(n, one, many = `${one}s`) {
  return `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
}

export function statusText(result) {
  const completeness = result.complete
    ? "complete"
    : `incomplete: stopped at ${LIMITS[result.stop_reason] || result.stop_reason}`;
  return `${STATUS[result.status] || result.status} · ${completeness}`;
}

export function usageText(usage) {
  return [count(usage.hops, "hop"), count(usage.retrieval_calls, "search", "searches"),
    count(usage.tokens, "token"), `${usage.elapsed_ms.toLocaleString("en")} ms`].join(" · ");
}

export function statusBlock(result) {
  return el("div", { class: "outcome" },
    el("p", { testid: "status", class: `status status-${result.status}`, role: "status" }, statusText(result)),
    result.usage ? el("p", { class: "usage" }, usageText(result.usage)) : null);
}

export function errorStatus(message) {
  return el("p", { testid: "status", class: "status status-error", role: "alert" }, message);
}
