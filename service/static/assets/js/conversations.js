// The caller's conversations: `GET conversations` lists their own, newest first, a page at a time
// ({conversations: [{conversation_id, title, created_at, updated_at, turns}], next_cursor}); `GET conversations/{id}`
// gives its turns {run_id, question, standalone_question, answer, short_answer, status, time, withheld}; `POST
// ask/stream` takes `conversation_id` and its result names the conversation it joined.
import { el, clear } from "./elements.js";

export class ConversationList {
  // `onOpen(id)` opens a conversation; `onDelete(id, title)` is asked to delete one.
  constructor(api, list, onOpen, onDelete) {
    this.api = api;
    this.list = list;
    this.onOpen = onOpen;
    this.onDelete = onDelete;
    this.current = null;
  }

  async refresh() {
    const body = await this.api.json("GET", "conversations");
    clear(this.list);
    this.show(body, true);
  }

  failed(message) {
    clear(this.list);
    this.list.append(el("li", { class: "error", role: "alert" }, `Your conversations could not be listed: ${message}`));
  }

  // One page of the list; a "More" button fetches the next one.
  show(body, first) {
    const items = body.conversations || [];
    for (const item of items) {
      const button = el("button", { type: "button", testid: "conversation",
        title: new Date(item.updated_at).toLocaleString(),
        "aria-current": item.conversation_id === this.current ? "true" : "false" }, item.title);
      button.dataset.conversationId = item.conversation_id;
      button.addEventListener("click", () => this.onOpen(item.conversation_id));
      const remove = el("button", { type: "button", class: "delete", testid: "delete-conversation",
        "aria-label": `Delete the conversation: ${item.title}`, title: "Delete" }, "×");
      remove.addEventListener("click", () => this.onDelete(item.conversation_id, item.title));
      this.list.append(el("li", {}, button, remove));
    }
    if (first && !items.length) this.list.append(el("li", { class: "hint" }, "No conversations yet."));
    if (body.next_cursor) {
      const more = el("button", { type: "button", class: "secondary" }, "More conversations");
      const row = el("li", {}, more);
      more.addEventListener("click", async () => {
        let next;
        try {
          next = await this.api.json("GET", `conversations?cursor=${encodeURIComponent(body.next_cursor)}`);
        } catch (error) {
          row.replaceChildren(el("p", { class: "error", role: "alert" }, `Not listed: ${error.message}`), more);
          return;
        }
        row.remove();
        this.show(next, false);
        this.select(this.current);
      });
      this.list.append(row);
    }
  }

  select(id) {
    this.current = id;
    for (const button of this.list.querySelectorAll("button[data-conversation-id]")) {
      button.setAttribute("aria-current", String(button.dataset.conversationId === id));
    }
  }

  async turns(id) {
    const body = await this.api.json("GET", `conversations/${encodeURIComponent(id)}`);
    return body.turns;
  }
}
