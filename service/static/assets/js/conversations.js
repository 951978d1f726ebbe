// The caller's conversations: `GET conversations` lists their own, newest first, a page at a time
// ({conversations: [{conversation_id, title, updated_at, ...}], next_cursor}); `GET conversations/{id}` gives its
// turns {question, standalone_question, answer, short_answer, status, run_id, time, withheld}; `POST ask/stream`
// takes `conversation_id` and its result names the conversation it joined.
import { el, clear } from "./elements.js";

// The list's items, whether the route answers a bare list or a page object ({conversations} or {items}).
export function conversationItems(body) {
  const items = Array.isArray(body) ? body : (body && (body.conversations || body.items)) || [];
  return items.map((c) => ({
    id: c.conversation_id || c.id,
    label: c.title || c.first_question || c.question || c.last_question || "Conversation",
    time: c.updated_at || c.created_at || c.time || null,
  })).filter((c) => c.id);
}

export class ConversationList {
  constructor(api, list, onOpen) {
    this.api = api;
    this.list = list;
    this.onOpen = onOpen;
    this.current = null;
  }

  async refresh() {
    const body = await this.api.json("GET", "conversations");
    clear(this.list);
    this.show(body, true);
  }

  // One page of the list; a "More" button fetches the next one.
  show(body, first) {
    const items = conversationItems(body);
    for (const item of items) {
      const when = item.time ? new Date(item.time).toLocaleString() : "";
      const button = el("button", { type: "button", testid: "conversation", title: when || null,
        "aria-current": item.id === this.current ? "true" : "false" }, item.label);
      button.dataset.conversationId = item.id;
      button.addEventListener("click", () => this.onOpen(item.id));
      this.list.append(el("li", {}, button));
    }
    if (first && !items.length) this.list.append(el("li", { class: "hint" }, "No conversations yet."));
    if (body && body.next_cursor) {
      const more = el("button", { type: "button", class: "secondary" }, "More conversations");
      const row = el("li", {}, more);
      more.addEventListener("click", async () => {
        const next = await this.api.json("GET", `conversations?cursor=${encodeURIComponent(body.next_cursor)}`);
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
    return (body && body.turns) || [];
  }
}
