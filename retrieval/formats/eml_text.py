"""A saved e-mail (.eml) as text: the subject is the title, sender, recipients and date lead the body as fields.

Attachments come back as files, for the loader to read as documents of their own with the message's ACL.
"""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage
from email.utils import parsedate_to_datetime
from typing import Any

from boundloop.retrieval.formats.container_check import OLE_MAGIC, ZIP_MAGIC
from boundloop.retrieval.formats.office_text import Attachment, OfficeText
from boundloop.retrieval.html_comments import strip_comments
from boundloop.retrieval.html_text import html_text

_NOT_MAIL = ((b"%PDF", "a PDF"), (ZIP_MAGIC, "a ZIP package (an Office file?)"), (OLE_MAGIC, "an Outlook .msg or "
                                                                                            "old Office file"))


def _header(message: EmailMessage, name: str) -> str:
    value = message.get(name)
    return " ".join(str(value).split()) if value is not None else ""


def _body(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain", "html"))
    if part is None:
        return ""
    content = part.get_content()
    if not isinstance(content, str):
        return ""
    if part.get_content_subtype() == "html":
        return html_text(strip_comments(content)[0])[1]
    return content


def message_text(message: EmailMessage) -> OfficeText:
    """A parsed message as text, metadata and attachments (also used for messages inside other formats)."""
    subject, sender, sent = _header(message, "Subject"), _header(message, "From"), _header(message, "Date")
    meta: dict[str, Any] = {}
    if sender:
        meta["author"] = sender
    if sent:
        try:
            when = parsedate_to_datetime(sent)
            meta["sent"], meta["date"] = when.isoformat(), when.date().isoformat()
        except (TypeError, ValueError):
            meta["sent"] = sent
    fields = [f"{label}: {value}" for label, value in (("From", sender), ("To", _header(message, "To")),
                                                       ("Cc", _header(message, "Cc")), ("Date", sent)) if value]
    attachments = []
    for part in message.iter_attachments():
        payload = part.get_payload(decode=True)
        if isinstance(payload, bytes) and part.get_filename():
            attachments.append(Attachment(str(part.get_filename()), payload))
    body = _body(message).strip()
    text = "\n".join(fields) + ("\n\n" + body if body else "")
    return OfficeText(title=subject, text=text if body else "", metadata=meta, attachments=tuple(attachments))


def read_eml(data: bytes) -> OfficeText:
    """The message of an .eml file; `ValueError` when the file is something else or holds no message."""
    named = next((name for magic, name in _NOT_MAIL if data.startswith(magic)), "")
    if named or b"\x00" in data[:4096]:
        raise ValueError(f"mislabelled: the file is {named or 'binary data'}, not an e-mail")
    message = email.message_from_bytes(data, policy=email.policy.default)
    if not isinstance(message, EmailMessage) or not (message.get("From") or message.get("Subject")):
        raise ValueError("not an e-mail: no From or Subject header")
    return message_text(message)
