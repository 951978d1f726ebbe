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
