// A passage's Markdown as written, as DOM nodes: headings, lists, tables, emphasis, code, quotes.
//
// Why this shape: markdown-it (vendored unmodified under assets/vendor/markdown-it, MIT, well kept and CommonMark
// compliant) parses, with raw HTML off, so `<script>` or `<img onerror>` in a passage is a text token. Its HTML
// string is never used: this module builds the elements itself from markdown-it's tokens, with createElement and
// text nodes, from a fixed list of tags and attributes. So nothing a document holds can become markup, an event
// handler or a style (the page's Content-Security-Policy refuses inline style; alignment is a class). Links open
// only http(s) and mailto URLs, in a new tab with rel="noopener noreferrer" and no referrer; any other link is inert
// text. Images are shown as their alt text and never fetched.
import markdownit from "../vendor/markdown-it/markdown-it.esm.min.mjs";
import { el } from "./elements.js";

const parser = markdownit({ html: false, linkify: false, typographer: false, breaks: true });
const BLOCKS = {
  paragraph_open: "p", bullet_list_open: "ul", ordered_list_open: "ol", list_item_open: "li",
  blockquote_open: "blockquote", table_open: "table", thead_open: "thead", tbody_open: "tbody", tr_open: "tr",
  th_open: "th", td_open: "td",
};
const INLINES = { strong_open: "strong", em_open: "em", s_open: "s" };
const SAFE_LINK = /^(?:https?:\/\/|mailto:)/iu;
const ALIGN = /^text-align:(left|center|right)$/u;

// The passage's own headings sit under the passage's title (an h4): '#' becomes h5, deeper levels h6.
function heading(token) {
  const level = Number(token.tag.slice(1));
  return el(`h${Math.min(6, level + 4)}`, { class: `md-h${level}` });
}

function block(token) {
  if (token.type === "heading_open") return heading(token);
  const node = el(BLOCKS[token.type]);
  const start = token.type === "ordered_list_open" ? token.attrGet("start") : null;  // a list that starts at 3.
  if (start !== null && Number.isInteger(Number(start))) node.setAttribute("start", String(Number(start)));
  const align = ALIGN.exec(token.attrGet("style") || "");
  if (align) node.className = `align-${align[1]}`;
  return node;
}

function link(token) {
  const href = token.attrGet("href") || "";
  if (!SAFE_LINK.test(href)) return el("span", { class: "link-inert", title: "Link not opened from a passage" });
  return el("a", { href, rel: "noopener noreferrer", target: "_blank", referrerpolicy: "no-referrer" });
}

function appendInline(parent, children) {
  const stack = [parent];
  const top = () => stack[stack.length - 1];
  for (const token of children || []) {
    if (token.type in INLINES) stack.push(top().appendChild(el(INLINES[token.type])));
    else if (token.type === "link_open") stack.push(top().appendChild(link(token)));
    else if (token.nesting === -1) stack.length > 1 && stack.pop();
    else if (token.type === "softbreak" || token.type === "hardbreak") top().append(el("br"));
    else if (token.type === "code_inline") top().append(el("code", {}, token.content));
    else top().append(document.createTextNode(token.content));  // text; an image's alt text; anything else
  }
}

// The rendered passage, in a <div class="passage-md">; throws only if the parser does.
export function renderMarkdown(markdown) {
  const root = el("div", { class: "passage-md" });
  const stack = [root];
  const top = () => stack[stack.length - 1];
  for (const token of parser.parse(markdown, {})) {
    if (token.hidden) continue;  // the paragraphs of a tight list: their text goes straight into the item
    if (token.type === "inline") appendInline(top(), token.children);
    else if (token.type === "heading_open" || token.type in BLOCKS) stack.push(top().appendChild(block(token)));
    else if (token.nesting === -1) stack.length > 1 && stack.pop();
    else if (token.type === "fence" || token.type === "code_block") {
      top().append(el("pre", {}, el("code", {}, token.content)));
    }
    else if (token.type === "hr") top().append(el("hr"));
    else if (token.content) top().append(el("p", {}, token.content));  // raw HTML is off; whatever else, as text
  }
  return root;
}
