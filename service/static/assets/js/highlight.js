// Marks where a passage says what the claim says: the claim itself where the passage holds it verbatim, otherwise
// the claim's words inside the lines or sentences that share the most of them.

const WORD = /[\p{L}\p{N}]+(?:[.,'’][\p{L}\p{N}]+)*/gu;
const STOP = new Set(("the and for are was were with from that this into onto per its their there than then they "
  + "you your our his her has have had not but can may any all each who whom what when where which how").split(" "));
// What may separate two marked words for them to be marked as one run: spaces, punctuation and small words.
const JOINER = /^[\s,;:|*()–-]*(?:(?:a|an|the|of|in|on|at|to|for|and|or|per|is|are)[\s,;:|*()–-]+)*$/iu;
const SEGMENT = /[^\n.!?]+[.!?]*/gu;

function claimWords(claim) {
  const words = [...claim.matchAll(WORD)].map((m) => m[0].toLowerCase());
  return new Set(words.filter((w) => /\d/.test(w) || (w.length > 2 && !STOP.has(w))));
}

function verbatim(text, claim) {
  const needle = claim.trim().replace(/[.!?]+$/u, "");
  if (needle.length < 8) return null;
  const pattern = needle.split(/\s+/u).map((w) => w.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&")).join("\\s+");
  const found = new RegExp(pattern, "iu").exec(text);
  return found ? [[found.index, found.index + found[0].length]] : null;
}

function wordRanges(text, words, from, to) {
  const ranges = [];
  for (const match of text.slice(from, to).matchAll(WORD)) {
    if (!words.has(match[0].toLowerCase())) continue;
    const start = from + match.index;
    const end = start + match[0].length;
    const last = ranges[ranges.length - 1];
    if (last && JOINER.test(text.slice(last[1], start))) last[1] = end;
    else ranges.push([start, end]);
  }
  return ranges;
}

// [start, end) ranges of `text` to mark for `claim`, in order.
export function markRanges(text, claim) {
  const exact = verbatim(text, claim);
  if (exact) return exact;
  const words = claimWords(claim);
  if (!words.size) return [];
  const segments = [...text.matchAll(SEGMENT)].map((m) => {
    const seen = new Set([...m[0].matchAll(WORD)].map((w) => w[0].toLowerCase()).filter((w) => words.has(w)));
    return { from: m.index, to: m.index + m[0].length, share: seen.size / words.size };
  });
  const best = Math.max(0, ...segments.map((s) => s.share));
  if (best === 0) return [];
  const threshold = Math.max(best * 0.75, 0.25);
  return segments.filter((s) => s.share >= threshold).flatMap((s) => wordRanges(text, words, s.from, s.to));
}

export function highlighted(text, claim) {
  const nodes = [];
  let at = 0;
  for (const [start, end] of markRanges(text, claim)) {
    if (start > at) nodes.push(document.createTextNode(text.slice(at, start)));
    const mark = document.createElement("mark");
    mark.textContent = text.slice(start, end);
    nodes.push(mark);
    at = end;
  }
  if (at < text.length) nodes.push(document.createTextNode(text.slice(at)));
  return nodes;
}

// Elements whose text reads as lines of their own, and cells, which read apart within their row's line.
const LINES = new Set(["P", "LI", "H1", "H2", "H3", "H4", "H5", "H6", "TR", "PRE", "BLOCKQUOTE", "TABLE", "HR"]);
const CELLS = new Set(["TD", "TH"]);

// Marks the claim inside a rendered passage: `markRanges` over the text the elements show (a line per block, a
// row's cells apart on its line), each range wrapped in <mark> in every text node it crosses.
export function markRendered(root, claim) {
  const pieces = [];
  let shown = "";
  const walk = (node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) {
        pieces.push([child, shown.length]);
        shown += child.data;
        continue;
      }
      const line = LINES.has(child.nodeName) || child.nodeName === "BR";
      shown += line ? "\n" : CELLS.has(child.nodeName) ? " | " : "";
      walk(child);
      if (line) shown += "\n";
    }
  };
  walk(root);
  const ranges = markRanges(shown, claim);
  for (const [node, at] of pieces) {
    const end = at + node.data.length;
    const inside = ranges.filter(([s, e]) => s < end && e > at);
    if (!inside.length) continue;
    const parts = [];
    let from = 0;
    for (const [s, e] of inside) {
      const start = Math.max(s, at) - at;
      const stop = Math.min(e, end) - at;
      if (start > from) parts.push(node.data.slice(from, start));
      const mark = document.createElement("mark");
      mark.textContent = node.data.slice(start, stop);
      parts.push(mark);
      from = stop;
    }
    if (from < node.data.length) parts.push(node.data.slice(from));
    node.replaceWith(...parts);
  }
  return root;
}
