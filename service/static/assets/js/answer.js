// The answer of one run: the short answer above the claims, each claim with its clickable [n] markers.
import { el } from "./elements.js";

function markerButton(citation, claim, onCite) {
  const button = el("button", {
    type: "button", class: "marker", testid: "citation", "aria-expanded": "false",
    "aria-label": `Source ${citation.marker}: ${citation.title}`,
  }, `[${citation.marker}]`);
  button.addEventListener("click", () => onCite(citation, claim, button));
  return button;
}

function claimItem(claim, byChunk, onCite) {
  const cited = [...new Set(claim.citations)].map((id) => byChunk.get(id)).filter(Boolean);
  return el("li", {}, claim.text, cited.map((c) => markerButton(c, claim.text, onCite)));
}

export function answerBlock(result, onCite) {
  const byChunk = new Map((result.citations || []).map((c) => [c.chunk_id, c]));
  const claims = result.claims || [];
  const box = el("div", { testid: "answer", class: "answer" });
  if (result.short_answer) {
    box.append(el("p", { class: "short-answer" }, el("span", { class: "visually-hidden" }, "Short answer: "),
      result.short_answer));
  }
  if (claims.length) {
    box.append(el("ul", { class: "claims", "aria-label": "Claims with their sources" },
      claims.map((claim) => claimItem(claim, byChunk, onCite))));
  } else {
    box.append(el("p", { class: "answer-text" }, result.answer));
  }
  return box;
}

export function notesBlock(result) {
  const notes = (result.conflicts || []).map((c) => el("p", { class: "conflicts" },
    `Sources disagree about ${c.topic}: ${c.values.join(" / ")}.`));
  if (result.dropped_claims) {
    notes.push(el("p", { class: "hint" }, `${result.dropped_claims} more claim(s) were dropped: `
      + "the cited passages did not support them."));
  }
  if (result.model_unavailable) {  // the model timed out or could not connect: the run went on offline
    const why = result.model_unavailable;
    notes.push(el("p", { class: "hint", testid: "model-unavailable" }, `${why[0].toUpperCase()}${why.slice(1)}.`));
  }
  return notes.length ? el("div", { class: "notes" }, notes) : null;
}

export function fallbackBlock(results) {
  if (!results || !results.length) return null;
  const heading = el("h4", {}, "Documents you can read that may help");
  return el("section", { class: "fallback", testid: "fallback" }, heading,
    el("ol", {}, results.map((r) => el("li", {},
      el("strong", {}, r.title), " ", el("span", { class: "doc-id" }, r.doc_id),
      el("p", { class: "snippet" }, r.snippet)))));
}
