// The outcome of a run in words: answered, abstained or fallback; complete, or incomplete and why; what it spent.
import { el } from "./elements.js";
import { LIMITS } from "./limits.js";

const STATUS = { answered: "Answered", abstained: "Abstained", fallback: "Fallback" };

function count(n, one, many = `${one}s`) {
  return `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
}

export function statusText(result) {
  const completeness = result.complete
    ? "complete"
    : `incomplete: stopped at ${LIMITS.find((l) => l.stop_reason === result.stop_reason)?.named || result.stop_reason}`;
  return `${STATUS[result.status] || result.status} · ${completeness}`;
}

// What the run spent, each limit's usage in its own words (`limits.js`, made from the limits' declaration).
export function usageText(usage) {
  return LIMITS.filter((l) => l.usage in usage).map((l) => count(usage[l.usage], l.one, l.many)).join(" · ");
}

export function statusBlock(result) {
  return el("div", { class: "outcome" },
    el("p", { testid: "status", class: `status status-${result.status}`, role: "status" }, statusText(result)),
    result.usage ? el("p", { class: "usage" }, usageText(result.usage)) : null);
}

export function errorStatus(message) {
  return el("p", { testid: "status", class: "status status-error", role: "alert" }, message);
}
