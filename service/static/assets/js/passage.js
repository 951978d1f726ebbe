// The passage behind a marker: title, document id and the passage as written (its Markdown rendered, see
// markdown.js; the flat text the run read when there is none) with the claim's words marked. One open per answer.
import { el, uniqueId } from "./elements.js";
import { highlighted, markRendered } from "./highlight.js";

async function passageBody(passage, claim) {
  if (passage.markdown) {
    try {
      // the parser (about 120 KB) loads with the first passage shown, not with the page
      const { renderMarkdown } = await import("./markdown.js");
      return markRendered(renderMarkdown(passage.markdown), claim);
    } catch (error) {
      console.warn("The passage's Markdown could not be shown; its text is shown instead.", error);
    }
  }
  return el("p", { class: "passage-text" }, highlighted(passage.text, claim));
}

export class PassageViewer {
  // `load` returns (once, cached) the run's cited passages: [{marker, doc_id, chunk_id, title, page, sheet, text,
  // markdown}].
  constructor(host, load) {
    this.host = host;
    this.load = load;
    this.open = null;
  }

  async show(citation, claim, button) {
    if (this.open && this.open.button === button) {
      this.close();
      return;
    }
    this.close(false);
    let passage = null;
    let problem = null;
    try {
      passage = (await this.load()).find((p) => p.marker === citation.marker) || null;
    } catch (error) {
      problem = `The passage could not be loaded: ${error.message}`;
    }
    const body = passage ? await passageBody(passage, claim) : null;
    const view = this.render(citation, body, problem);
    this.host.append(view);
    button.setAttribute("aria-expanded", "true");
    button.setAttribute("aria-controls", view.id);
    this.open = { button, view };
    view.querySelector("h4").focus();
  }

  render(citation, body, problem) {
    const id = uniqueId("passage");
    const close = el("button", { type: "button", class: "secondary", "aria-label": "Close the passage" }, "Close");
    close.addEventListener("click", () => this.close());
    const where = [`Document ${citation.doc_id}`, `passage ${citation.chunk_id}`];
    if (citation.page) where.push(`page ${citation.page}`);
    body = body || el("p", { class: "hint" }, problem || "This passage is no longer available to you.");
    const view = el("section", { class: "passage", testid: "passage", id, "aria-labelledby": `${id}-title` },
      el("div", { class: "passage-head" },
        el("h4", { id: `${id}-title`, tabindex: "-1" }, `[${citation.marker}] ${citation.title}`), close),
      el("p", { class: "meta" }, where.join(" · ")),
      body);
    view.addEventListener("keydown", (event) => {
      if (event.key === "Escape") this.close();
    });
    return view;
  }

  close(returnFocus = true) {
    if (!this.open) return;
    const { button, view } = this.open;
    view.remove();
    button.setAttribute("aria-expanded", "false");
    button.removeAttribute("aria-controls");
    this.open = null;
    if (returnFocus) button.focus();
  }
}
