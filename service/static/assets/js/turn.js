// One question and what came of it: live steps, then the answer, its status, fallback list, trace and feedback.
import { answerBlock, fallbackBlock, notesBlock } from "./answer.js";
import { el } from "./elements.js";
import { feedbackControls } from "./feedback.js";
import { PassageViewer } from "./passage.js";
import { errorStatus, statusBlock } from "./status.js";
import { StepsView } from "./steps.js";
import { traceSection } from "./trace.js";

export class Turn {
  // `page` offers `api`, signed in.
  constructor(page, question) {
    this.page = page;
    this.question = question;
    this.steps = new StepsView();
    this.working = el("p", { class: "working", role: "status" }, "Working…");
    this.body = el("div", { class: "turn-body" });
    this.node = el("li", { class: "turn" },
      el("p", { class: "question" }, el("span", { class: "visually-hidden" }, "You asked: "), question),
      this.steps.node, this.working, this.body);
  }

  addStep(span) {
    this.steps.add(span);
  }

  showResult(result) {
    this.working.remove();
    this.steps.done();
    const api = this.page.api;
    let passages = null;
    const load = () => {
      passages = passages || api.json("GET", `runs/${result.run_id}/passages`).then((body) => body.passages);
      passages.catch(() => { passages = null; });
      return passages;
    };
    const answer = answerBlock(result, (citation, claim, button) => viewer.show(citation, claim, button));
    const viewer = new PassageViewer(answer, load);
    const standalone = result.standalone_question && result.standalone_question !== this.question
      ? el("p", { class: "standalone" }, `Understood as: ${result.standalone_question}`) : null;
    this.body.replaceChildren(...[
      standalone, answer, statusBlock(result), notesBlock(result), fallbackBlock(result.fallback_results),
      traceSection(() => api.json("GET", `runs/${result.run_id}/trace`)),
      feedbackControls(api, result.run_id),
    ].filter(Boolean));
  }

  // A turn of an earlier conversation whose run could not be read back: what the conversation kept of it. A
  // withheld turn showed documents the user can no longer read: only the question is left.
  showStored(turn) {
    this.working.remove();
    this.steps.node.remove();
    const note = turn.withheld ? "Withheld: it showed documents you can no longer read."
      : { running: "Still running.", interrupted: "Interrupted before it finished.",
          cancelled: "Stopped: the page left before it finished." }[turn.status] || null;
    this.body.replaceChildren(
      note ? null : el("div", { testid: "answer", class: "answer" },
        turn.short_answer ? el("p", { class: "short-answer" }, turn.short_answer) : null,
        el("p", { class: "answer-text" }, turn.answer || "")),
      el("p", { testid: "status", class: `status status-${turn.status}` }, note || turn.status || "unknown"));
  }

  showError(message) {
    this.working.remove();
    this.body.replaceChildren(errorStatus(message));
  }
}
