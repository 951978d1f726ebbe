// The page: sign in and out, the caller's conversations, ask (Enter) with live steps, follow-ups.
import { Api, ApiError } from "./api.js";
import { ConversationList } from "./conversations.js";
import { providerSession, providerSignOut } from "./provider.js";
import { forgetKey, saveKey, savedKey } from "./session.js";
import { Turn } from "./turn.js";

const $ = (id) => document.getElementById(id);

class Page {
  constructor() {
    this.api = null;
    this.busy = false;
    this.conversationId = null;
    this.conversations = null;
    this.controller = null;
    this.csrf = null;
  }

  async signIn(key, csrf = null) {
    const api = new Api(key, csrf);
    let me;
    try {
      me = await api.json("GET", "me");
    } catch (error) {
      this.signOut(error.status === 401 ? "That API key was not accepted." : `Sign-in failed: ${error.message}`);
      return;
    }
    if (key) saveKey(key);
    this.csrf = csrf;
    this.api = api;
    $("who-name").textContent = me.display_name || me.user;
    $("who").hidden = false;
    $("sign-in-view").hidden = true;
    $("chat-view").hidden = false;
    $("api-key").value = "";
    $("sign-in-error").textContent = "";
    $("question").focus();
    this.conversations = new ConversationList(api, $("conversation-list"), (id) => this.open(id),
      (id, title) => this.remove(id, title));
    await this.refreshConversations();
  }

  signOut(message = "") {
    if (this.controller) this.controller.abort();
    forgetKey();
    this.api = null;
    this.conversations = null;
    this.conversationId = null;
    $("turns").replaceChildren();
    $("conversation-list").replaceChildren();
    $("empty-thread").hidden = false;
    $("who").hidden = true;
    $("chat-view").hidden = true;
    $("sign-in-view").hidden = false;
    $("sign-in-error").textContent = message;
    $("api-key").focus();
  }

  async refreshConversations() {
    if (!this.conversations) return;
    try {
      await this.conversations.refresh();
      this.conversations.select(this.conversationId);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) this.signOut("Your key is no longer accepted.");
      else this.conversations.failed(error.message);
    }
  }

  newConversation() {
    this.conversationId = null;
    if (this.conversations) this.conversations.select(null);
    $("turns").replaceChildren();
    $("empty-thread").hidden = false;
    $("question").focus();
  }

  async open(id) {
    this.newConversation();
    this.conversationId = id;
    this.conversations.select(id);
    let turns;
    try {
      turns = await this.conversations.turns(id);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) this.signOut("Your key is no longer accepted.");
      else if (error instanceof ApiError && error.status === 404) await this.conversationGone();
      return;
    }
    for (const stored of turns) {
      const turn = this.addTurn(stored.question);
      const finished = ["answered", "abstained", "fallback"].includes(stored.status);
      try {
        // The whole result (citations, trace, feedback) comes from the run; a withheld turn shows only its question.
        const run = finished && !stored.withheld ? await this.api.json("GET", `runs/${stored.run_id}`) : null;
        if (run && run.result) turn.showResult(run.result);
        else turn.showStored(stored);
      } catch {
        turn.showStored(stored);
      }
    }
  }

  // Delete a conversation of the caller's, once confirmed: its runs, traces and ratings go with it.
  async remove(id, title) {
    if (!window.confirm(`Delete "${title}"? Its answers, traces and ratings are deleted too.`)) return;
    try {
      await this.api.json("DELETE", `conversations/${encodeURIComponent(id)}`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        this.signOut("Your key is no longer accepted.");
        return;
      }
      if (!(error instanceof ApiError && error.status === 404)) {  // a 404: it was gone already
        this.conversations.failed(error.message);
        return;
      }
    }
    if (this.conversationId === id) this.newConversation();
    await this.refreshConversations();
  }

  // The open conversation no longer exists (deleted elsewhere, or taken by the run retention).
  async conversationGone() {
    this.newConversation();
    await this.refreshConversations();
  }

  addTurn(question) {
    const turn = new Turn(this, question);
    $("empty-thread").hidden = true;
    $("turns").append(turn.node);
    return turn;
  }

  async ask() {
    const field = $("question");
    const question = field.value.trim();
    if (!question || this.busy || !this.api) return;
    this.setBusy(true);
    field.value = "";
    const turn = this.addTurn(question);
    const body = { question };
    if (this.conversationId) body.conversation_id = this.conversationId;
    this.controller = new AbortController();
    let finished = false;
    try {
      for await (const { event, data } of this.api.stream("ask/stream", body, this.controller.signal)) {
        if (event === "span") turn.addStep(data);
        else if (event === "result") {
          finished = true;
          turn.showResult(data);
          if (data.conversation_id) this.conversationId = data.conversation_id;
        } else if (event === "error") {
          finished = true;
          turn.showError(data.detail || "The run failed.");
        }
      }
      if (!finished) turn.showError("The answer stream ended before the answer arrived.");
    } catch (error) {
      if (error.name === "AbortError") return;
      if (error instanceof ApiError && error.status === 401) {
        this.signOut("Your key is no longer accepted; sign in again.");
        return;
      }
      if (error instanceof ApiError && error.status === 404 && body.conversation_id) {
        // Deleted elsewhere, or taken by the run retention: the next question starts a new conversation.
        turn.showError("That conversation is gone: ask again to start a new one.");
        this.conversationId = null;
      } else {
        const wait = error.retryAfter ? ` Try again in ${error.retryAfter} s.` : "";
        turn.showError(`The question could not be asked: ${error.message.replace(/\.$/u, "")}.${wait}`);
      }
    } finally {
      this.controller = null;
      this.setBusy(false);
    }
    await this.refreshConversations();
  }

  setBusy(busy) {
    this.busy = busy;
    $("ask").disabled = busy;
    $("ask-form").setAttribute("aria-busy", String(busy));
  }
}

const page = new Page();

$("sign-in-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const key = $("api-key").value.trim();
  if (key) page.signIn(key);
  else $("sign-in-error").textContent = "Enter your API key.";
});
$("sign-out").addEventListener("click", () => {
  if (page.csrf) providerSignOut(page.csrf);
  else page.signOut();
});
$("new-conversation").addEventListener("click", () => page.newConversation());
$("ask-form").addEventListener("submit", (event) => {
  event.preventDefault();
  page.ask();
});
$("question").addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    page.ask();
  }
});

async function start() {
  const key = savedKey();
  if (key) {
    await page.signIn(key);
    return;
  }
  $("api-key").focus();
  const session = await providerSession();
  $("provider-sign-in").hidden = !session.provider;
  if (session.user) await page.signIn(null, session.csrf);
}

start();
