"""A message as text, whatever file it came in (.eml, .msg): the subject is the title, the header fields lead."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from boundloop.retrieval.formats.office_text import Attachment, OfficeText


def mail_text(subject: str, sender: str, to: str, cc: str, date_line: str, sent: datetime | None, body: str,
              attachments: tuple[Attachment, ...] = ()) -> OfficeText:
    """The message's fields (`From: ...` lines, read as fields by the chunker) over its body.

    `date_line` is the date as the message shows it, `sent` the time read from it (None when unreadable). The
    sender is the `author`; the day it was sent is the document's `date`. The attachments' names are a field too: a
    message that only carries files is a document (its files are read under its ACL); one with neither a body nor
    attachments has no text, and the loader names it.
    """
    meta: dict[str, Any] = {}
    if sender:
        meta["author"] = sender
    if sent is not None:
        meta["sent"], meta["date"] = sent.isoformat(), sent.date().isoformat()
    elif date_line:
        meta["sent"] = date_line
    names = ", ".join(attachment.name for attachment in attachments)
    fields = [f"{label}: {value}" for label, value in (("From", sender), ("To", to), ("Cc", cc), ("Date", date_line),
                                                       ("Attachments", names)) if value]
    body = body.strip()
    text = "\n".join(fields) + ("\n\n" + body if body else "") if body or attachments else ""
    return OfficeText(title=subject, text=text, metadata=meta, attachments=attachments)
