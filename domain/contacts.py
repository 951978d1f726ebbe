"""How a phone number and an e-mail address are written: one pattern each, for ingest and the reader alike."""

from __future__ import annotations

import re

PHONE = re.compile(
    r"\+\d{1,3}(?:[\s.-]?\d{1,4}){2,5}|\b(?:extension|ext\.?|x):?\s?\d{3,6}\b|\(\d{3}\)\s?\d{3}-\d{4}"
    r"|\b\d{3}-\d{3}-\d{4}\b"
    r"|(?<![\w.])0\d{2,4}[\s-]\d{3,4}[\s-]?\d{3,4}\b"  # a national number: '01632 552222', '020 7946 0018'
)
EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")
