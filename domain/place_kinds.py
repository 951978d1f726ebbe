"""Words naming a kind of place: 'Glasgow Office', 'Terminal Gdynia', a directory's 'Site: Glasgow'.

One list for the retrieval step that ranks a place's own page first and for the reader that follows a person to
their site and reads that site's fields.
"""

from __future__ import annotations

import re

from boundloop.domain.vocabulary import words

PLACE_KINDS = words("place_kinds")
PLACE_KIND = re.compile(rf"\b(?:{'|'.join(sorted(PLACE_KINDS))})\b", re.IGNORECASE)
"""A word naming a kind of place, as a whole word: `search` finds one in a text, `fullmatch` says a word is one."""
