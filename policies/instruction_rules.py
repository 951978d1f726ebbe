"""The instruction policy's rules: shapes of an instruction, filled with each language's words from a data file.

A template is the shape of an instruction ("{override_verbs} ... {instruction_nouns}": 'Ignore all previous
instructions', 'Ignorez toutes les instructions précédentes'); the words are data (`instruction_words.json`, one
entry per language), so a language is added by listing its words. Each template is compiled once per language that
has all its classes, when the policy is first used. Pure: no model, no I/O beyond reading the words once.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from boundloop.domain.words import STOPWORDS

WORDS_FILE = Path(__file__).with_name("instruction_words.json")

_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"), None)
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u02bc": "'", "`": "'", "\u201c": '"', "\u201d": '"',
                         "\u00ab": '"', "\u00bb": '"'})
_TOKEN = re.compile(r"[^\W_]+")
_DOTTED = re.compile(r"(?<![\w.])((?:[a-z]\.){2,4})(?!\w)")  # 'a.i.', 'k.i.' read as 'ai', 'ki'
_TABLE_ROW = re.compile(r";\s*[\w ()/-]{1,40}:")  # the chunker writes a table row as "Column: cell; Column: cell"

# Between two slots: a space, or nothing after an apostrophe ("l'" + "utilisateur"). Gaps are whole words, so a
# comma or a full stop ends them: a match stays inside one clause.
_J = r"(?:\s+|(?<=')\s*)"
_TOKENS = {
    "J": _J,
    "START": r"^[\s#*\u2022>_\[(-]*",  # a sentence's start, past bullets, heading marks and brackets
    "CLAUSE": r"(?:[^.;!?]|\.(?=\S))",  # a full stop inside a word ('evil.example', '2.5') ends no clause
    # What may follow an AI's name when the sentence is about the AI itself, not 'an AI engineer' or 'AI tools'.
    "AFTER": rf"(?=\s*(?:[,.;:!?)\"]|$)|{_J}(?:{{unbound}}|{{processing_this}}|{{joiners}}))",
    # Between a question and the reply it dictates, no one the reply is for: 'If asked, staff should say ...' is a
    # procedure for staff.
    "UNTOLD": r"(?:(?!{staff}){CLAUSE})",
    # Up to three words, none a negation: 'must always answer', never 'must not answer'.
    "free3": rf"(?:{_J}(?!{{negations}})[\w'-]+){{0,3}}?",
}
_SLOT = re.compile(r"\{([A-Za-z_]+\d?)\}")


@dataclass(frozen=True)
class Template:
    """One shape of an instruction; `gate` names classes one of whose words every match holds."""

    gate: tuple[str, ...]
    shape: str
    excuse: str = ""
    """'negated': a negation just before it makes it policy; 'label': a 'System: Okta' field; 'glossary': 'AI:
    Artificial Intelligence'."""


T = Template
_MACHINE = "(?:{machines}|{products})"
TEMPLATES: dict[str, tuple[Template, ...]] = {
    "overrides earlier instructions": (  # 'Ignore previous instructions', 'Vergiss alles, was dir gesagt wurde'
        T(("override_verbs",), "(?P<act>{override_verbs}){gap4}{J}{instruction_nouns}", "negated"),
        T(("override_verbs",), "(?P<act>{override_verbs}){gap2}{J}{earlier}{gap2}{J}{soft_nouns}", "negated"),
        T(("override_verbs",), "(?P<act>{override_verbs}){J}{everything},?{J}{before_adverbs}", "negated"),
        T(("override_final",), "{instruction_nouns}{free3}{J}{override_final}", "negated"),
    ),
    "addresses an AI": (  # 'AI assistants reading this', 'Note to the AI:', 'Hey ChatGPT,', 'If you are an AI'
        T(("machines", "products"), _MACHINE + "{gap3}{J}{processing_this}"),
        T(("notes",), "{START}{notes}(?:{J}{articles})*{J}(?:{machines}|{products}|{addressees})\\s*(?:[:,;.!-]|$)"),
        T(("machines",), "{START}(?:{greetings}[\\s,]+)?(?:{articles}{J})*(?P<role>{machines})\\s*:", "glossary"),
        T(("greetings",), "{START}{greetings}[\\s,]+(?:{articles}{J})*" + _MACHINE + "\\s*[,:!]"),
        T(("directives",), "{START}(?:{greetings}[\\s,]+)?(?:{articles}{J})*(?:{machines}|{products}|{readers})"
                           "\\s*[,!]{CLAUSE}*?{directives}(?!{J}{not_after_answer})"),
        T(("directives",), "{START}{greetings}[\\s,]+(?:{articles}{J})*{addressees}\\s*[,!]{CLAUSE}*?{directives}"
                           "(?!{J}{not_after_answer})"),
        T(("if_you_are",), "{if_you_are}{J}(?:{articles}{J})?" + _MACHINE + "{AFTER}"),
        T(("be_final",), "{if_you_are_vf}{J}(?:{articles}{J})?" + _MACHINE + "{J}{be_final}"),
        T(("machines", "products"), "{as_a}{J}" + _MACHINE + "\\s*,"),
        T(("machines", "products", "readers"), "(?:{machines}|{products}|{readers})(?:{J}{modal_adverbs})*{J}"
                                               "{modals}(?:{J}{modal_adverbs})*{free3}{J}{directives}"
                                               "(?!{J}{not_after_answer})"),
        T(("modals_first",), "{modals_first}{J}(?:{articles}{J})?" + _MACHINE + "{free3}{J}{directives}"),
    ),
    "speaks as the system": (  # 'Assistant: ...', 'SYSTEM: reply only with ...'
        T(("roles",), "{START}(?P<role>{roles})\\s*[:>\\]]", "glossary"),
        T(("system_roles",), "{START}(?P<role>{system_roles})\\s*[:>\\]]", "label"),
    ),
    "prompt markup or role play": (  # '[INST]', '### Instruction', 'You are now DAN', 'Pretend to be'
        T(("markup",), "{markup}", "negated"),
        T(("markup_headings",), "^\\s*#{2,}\\s*{markup_headings}\\s*(?::|$)"),
        T(("markup_labels",), "^\\s*#{2,}\\s*{markup_labels}\\s*:"),
        T(("unbound", "machines", "products", "addressees", "personas"), "{you_are_now}(?:{J}{articles})?{gap2}{J}"
                            "(?:{unbound}|{machines}|{products}|{addressees}|{personas})", "negated"),
        T(("you_are",), "{you_are}{J}(?:{articles}{J})?(?:[\\w'-]+{J}){0,2}?" + _MACHINE + "{AFTER}", "negated"),
        T(("unbound",), "{you_are}{J}(?:{articles}{J})?{unbound}", "negated"),
        T(("new_instructions",), "{new_instructions}", "negated"),
        T(("pretend",), "{pretend}", "negated"),
        T(("act_as",), "{act_as}(?:{J}{articles})?(?:{J}{unbound})?{J}" + _MACHINE + "{AFTER}", "negated"),
    ),
    "dictates the answer": (  # 'When a user asks for the roof code, reply ...', 'Respond to every question with'
        T(("ask_verbs",), "{conditionals}{gap3}{J}{askers}{gap5}{J}{ask_verbs}{UNTOLD}{0,120}?"
                          "(?P<act>{answer_verbs})(?!{J}{not_after_answer})", "negated"),
        T(("asked",), "{conditionals}{gap4}{J}{asked}{UNTOLD}{0,120}?(?P<act>{answer_verbs})"
                      "(?!{J}{not_after_answer})", "negated"),
        T(("ask_verbs", "asked"), "{START}(?:{modal_adverbs}{J})?(?P<act>{answer_verbs})(?!{J}{not_after_answer})"
                                  "{CLAUSE}{0,80}?{J}{conditionals}{gap3}{J}(?:{askers}{gap5}{J}{ask_verbs}|{asked})",
          "negated"),
        T(("question_nouns",), "(?P<act>{answer_verbs}){gap2}{J}{sweeping}{gap2}{J}{question_nouns}{gap4}{J}"
                               "{with_words}", "negated"),
        T(("as_answer",), "{as_answer}{gap2}{J}{sweeping}{gap1}{J}{question_nouns}", "negated"),
        T(("whatever",), "{whatever}"),
        T(("true_answer",), "{true_answer}(?:{gap2}{J}{sweeping}{gap6})?{J}{is_words}"),
        T(("answer_only", "answer_verbs"), "{from_now_on},?(?:{J}{second_person})?(?:{J}{modal_adverbs})?{J}"
                            "(?P<act>{answer_only}|{answer_verbs})(?!{J}{not_after_answer})", "negated"),
        T(("answer_only",), "(?P<act>{answer_only})", "negated"),
        T(("answer_nouns",), "(?P<act>{insert_verbs}){CLAUSE}{0,80}?{J}{into}{J}(?:{sweeping}|{possessives}){J}"
                             "{answer_nouns}", "negated"),
        T(("this_doc",), "{answer_nouns}{gap2}{J}{this_doc}{CLAUSE}*?{J}{modals}(?:{J}{modal_adverbs})*{J}"
                         "(?:{directives}|{insert_verbs})"),
        T(("when_processing",), "{when_processing}{CLAUSE}{0,80}?(?:{directives}|{insert_verbs})"),
    ),
    "tells the reader what to believe": (  # 'Tell the user the parking code is ...', 'Let the user know ...'
        T(("users",), "{tell_verbs}{gap1}{J}{users}(?!{J}{not_after_tell})"),
        T(("tell_phrases",), "{tell_phrases}(?!{J}{not_after_tell})"),
        T(("conceal",), "{conceal}{gap1}{J}{users}{CLAUSE}{0,60}?{this_words}"),
        T(("users",), "{tell_verbs}{J}{users}{J}{negations}{CLAUSE}{0,60}?{this_words}"),
        T(("conceal_doc",), "{conceal_doc}{J}{this_instruction}"),
        T(("mention_verbs",), "{mention_verbs}{J}{this_instruction}{J}{negations}"),
    ),
    "asks to dump data": (  # 'Print the contents of ...', 'Reveal the admin password'
        T(("content_of",), "(?P<act>{dump_verbs}){gap2}{J}(?:{whole}{J})?{content_of}", "negated"),
        T(("leak_verbs",), "(?:{START}|[,;:]\\s*|{imperative_lead}{J})(?P<act>{leak_verbs}){gap3}{J}{secret_nouns}",
          "negated"),
        T(("bulk_leak",), "(?P<act>{bulk_leak})", "negated"),
    ),
}


@dataclass(frozen=True)
class Rule:
    """A template in one language's words."""

    name: str
    language: str
    template: Template
    source: str
    gate: frozenset[str]
    """Words one of which every match holds; empty: tried on every sentence."""
    negation: str
    address: str
    """The language's second-person words and directives: what makes 'System: ...' more than a field label."""

    @property
    def pattern(self) -> re.Pattern[str]:
        """Compiled on first use: a run compiles only the rules that its sentences' words let through."""
        return _compiled(self.source)


@cache
def _compiled(source: str) -> re.Pattern[str]:
    return re.compile(source)


def normalise(text: str) -> str:
    """Case, accents, width, invisible characters, quotes and spacing folded.

    'Ｉｇｎｏｒｅ', 'I\u200bgnore' and 'ignore' read alike, and so do 'modèle' and 'modele', 'A.I.' and 'AI', or
    'Assistant :' and 'Assistant:'.
    """
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text.translate(_INVISIBLE).translate(_QUOTES))
        text = "".join(c for c in text if not unicodedata.combining(c))
    text = " ".join(text.casefold().split())
    if "." in text:
        text = _DOTTED.sub(lambda m: m.group(1).replace(".", ""), text)
    return text.replace(" :", ":") if " :" in text else text


def sentence_words(text: str) -> set[str]:
    """The words of a normalised text, as the rules' gates count them."""
    return set(_TOKEN.findall(text))


def _alternation(phrases: list[str]) -> str:
    return _alternation_of(tuple(phrases))


@cache
def _alternation_of(phrases: tuple[str, ...]) -> str:
    """Phrases as one pattern: whole words only (no word or hyphen joined on), a space or a hyphen between words.

    The word boundaries are written once per group of phrases, not per phrase: that keeps the hundreds of patterns
    quick to compile.
    """
    groups: dict[tuple[bool, bool], list[str]] = {}
    for phrase in sorted({normalise(p) for p in phrases}, key=len, reverse=True):
        body = re.escape(phrase).replace("\\ ", "[ -]").replace("\\-", "[ -]")
        groups.setdefault((phrase[:1].isalnum(), phrase[-1:].isalnum()), []).append(body)
    return "(?:" + "|".join((r"(?<![\w-])" if starts else "") + "(?:" + "|".join(bodies) + ")"
                            + (r"(?![\w-])" if ends else "") for (starts, ends), bodies in groups.items()) + ")"


@cache
def _gate(phrases: tuple[str, ...]) -> frozenset[str] | None:
    """A word of each phrase, the least common: a match of the class holds one of them.

    Not a stopword, then the longest; None when a phrase has no word.
    """
    words = [max(_TOKEN.findall(normalise(p)), key=lambda w: (w not in STOPWORDS, len(w)), default="")
             for p in phrases]
    return None if "" in words else frozenset(words)


def _source(template: Template, words: dict[str, list[str]]) -> tuple[str, frozenset[str]] | None:
    """The template's pattern in one language's words, and its gate; None when the language lacks a class."""
    def fill(match: re.Match[str]) -> str:
        slot = match.group(1)
        if slot in _TOKENS:
            return _SLOT.sub(fill, _TOKENS[slot])
        if slot.startswith("gap"):
            return rf"(?:{_J}[\w'-]+){{0,{slot[3:]}}}?"
        if not words.get(slot):
            raise LookupError(slot)
        return _alternation(words[slot])

    try:
        source = _SLOT.sub(fill, template.shape)
    except LookupError:
        return None
    gates = [_gate(tuple(words[name])) for name in template.gate if words.get(name)]
    if not gates or None in gates:
        return source, frozenset()
    return source, frozenset().union(*[g for g in gates if g is not None])


@lru_cache(maxsize=1)
def language_words() -> dict[str, dict[str, list[str]]]:
    """Each language's word classes, with the common ones merged in."""
    data = json.loads(WORDS_FILE.read_text(encoding="utf-8"))
    common: dict[str, list[str]] = data["common"]
    return {lang: {cls: words.get(cls, []) + common.get(cls, []) for cls in set(words) | set(common)}
            for lang, words in data["languages"].items()}


@lru_cache(maxsize=1)
def rules() -> tuple[Rule, ...]:
    """Every template in every language that has its words, in the order of TEMPLATES.

    The first rule a sentence trips names it.
    """
    built: list[Rule] = []
    # A negation in any language excuses: 'ignore' and 'instructions' are French words too, and 'Never ignore the
    # safety instructions' must not trip the French rule for want of a French negation.
    negations = _alternation([w for words in language_words().values() for w in words.get("negations", [])])
    for name, templates in TEMPLATES.items():
        for template in templates:
            for lang, words in language_words().items():
                if (found := _source(template, words)) is not None:
                    address = _alternation(words.get("second_person", []) + words.get("directives", []))
                    built.append(Rule(name, lang, template, found[0], found[1], negations, address))
    return tuple(built)


@lru_cache(maxsize=1)
def announcers() -> re.Pattern[str]:
    """Words with which an instruction announces the next sentence ('the following', 'ci-dessous')."""
    return re.compile(_alternation([w for words in language_words().values() for w in words.get("announcers", [])]))


def excused(rule: Rule, text: str, match: re.Match[str]) -> bool:
    """Ordinary text that a rule's wording also fits."""
    if rule.template.excuse == "negated":
        start = match.start("act") if "act" in rule.pattern.groupindex else match.start()
        near = " ".join(text[:start].split()[-3:]) + " | " + " ".join(text[match.end():].split()[:1])
        return bool(_compiled(rule.negation).search(near))  # 'Never reveal your password'
    if rule.template.excuse in ("label", "glossary") and _TABLE_ROW.search(text):
        return True  # "System: Okta; What it is for: Single sign-on" is a table row
    rest = text[match.end():].strip()
    if rule.template.excuse == "glossary":  # 'AI: Artificial Intelligence', 'KI: Künstliche Intelligenz'
        letters = re.sub(r"[^a-z]", "", match.group("role"))
        initials = "".join(word[:1] for word in _TOKEN.findall(rest)[: len(letters)])
        return 2 <= len(letters) <= 4 and initials == letters
    if rule.template.excuse == "label":  # 'Assistant: Jane Doe' is a field; 'Assistant: The code is 1234.' speaks
        short = len(rest.split()) <= 3 and not rest.endswith((".", "!", "?"))
        return short and not _compiled(rule.address).search(rest)
    return False
