// Thumbs up or down on an answer, with an optional comment: `POST runs/{run_id}/feedback`
// ({"score": 1 | -1, "comment"?: at most 2,000 characters}). The score is sent at the click; a comment is sent
// with the same score afterwards, so the stored feedback is the latest of the two.
import { el, uniqueId } from "./elements.js";

const MAX_COMMENT = 2000;

export function feedbackControls(api, runId) {
  let score = null;
  const note = el("p", { class: "hint", role: "status" });
  const id = uniqueId("comment");
  const comment = el("textarea", { id, rows: 2, maxlength: MAX_COMMENT });
  const form = el("form", { hidden: true }, el("label", { for: id }, "Comment (optional)"), comment,
    el("button", { type: "submit", class: "secondary" }, "Send comment"));

  async function send(body) {
    try {
      await api.json("POST", `runs/${runId}/feedback`, body);
      return true;
    } catch (error) {
      note.textContent = `Your feedback was not saved: ${error.message}`;
      return false;
    }
  }

  function thumb(testid, label, value) {
    const button = el("button", { type: "button", class: `thumb thumb-${value > 0 ? "up" : "down"}`, testid,
      "aria-pressed": "false" }, label);
    button.addEventListener("click", async () => {
      score = value;
      for (const other of [up, down]) other.setAttribute("aria-pressed", String(other === button));
      if (await send({ score })) {
        note.textContent = "Thank you: your rating was saved.";
        form.hidden = false;
      }
    });
    return button;
  }

  const up = thumb("feedback-up", "Helpful", 1);
  const down = thumb("feedback-down", "Not helpful", -1);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = comment.value.trim();
    if (!text || score === null) return;
    if (await send({ score, comment: text })) {
      note.textContent = "Thank you: your comment was saved.";
      form.hidden = true;
    }
  });
  return el("div", { class: "feedback", role: "group", "aria-label": "Was this answer useful?" },
    el("span", {}, "Was this useful?"), up, down, note, form);
}
