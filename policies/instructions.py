"""Instructions inside documents are data: the pattern of sentences that address an AI or try to steer it.

Such sentences are never extracted as claims, never supply names for lookups, and a claim carrying one is dropped.
"""

from __future__ import annotations

import re

# Sentences that address an AI or try to change its behaviour: data to quote never, instructions to follow never.
INSTRUCTION = re.compile(
    r"(ignore (all |any |your )?(previous|prior|above|earlier) (instructions|prompts?|rules)"
    r"|disregard (all |any |your )?(previous|prior|above|earlier)"
    r"|(ai|llm|language model|chat ?bot|assistant)s?\b[^.]{0,60}\b(must|should|shall|reading this|are instructed)"
    r"|^\s*(system|assistant)\s*:"
    r"|\bsystem prompt\b|\bnew instructions?\b|\byou are now\b|\breveal (the |all )?(document|secret|password)"
    r"|\breply only with\b|\brespond only with\b|\bdo not tell the user\b)",
    re.IGNORECASE,
)
