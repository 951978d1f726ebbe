"""A saved e-mail (.eml) as text: the subject is the title, sender, recipients and date lead the body as fields.

Attachments come back as files, for the loader to read as documents of their own with the message's ACL.
"""

from __future__ import annotations

import email
import email.policy
from datetime import datetime
from email.message import EmailMessage
from email.utils import parsedate_to_datetime

from boundloop.retrieval.formats.container_check import OLE_MAGIC, ZIP_MAGIC
from boundloop.retrieval.formats.mail_text import mail_text
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
    date_line = _header(message, "Date")
    sent: datetime | None = None
    try:
        sent = parsedate_to_datetime(date_line) if date_line else None
    except (TypeError, ValueError):
        pass  # an unreadable date is shown as it was written, and gives the document no date
    attachments = []
    for part in message.iter_attachments():
        payload = part.get_payload(decode=True)
        if isinstance(payload, bytes) and part.get_filename():
            attachments.append(Attachment(str(part.get_filename()), payload))
    return mail_text(_header(message, "Subject"), _header(message, "From"), _header(message, "To"),
                     _header(message, "Cc"), date_line, sent, _body(message), tuple(attachments))


def read_eml(data: bytes) -> OfficeText:
    """The message of an .eml file; `ValueError` when the file is something else or holds no message."""
    named = next((name for magic, name in _NOT_MAIL if data.startswith(magic)), "")
    if named or b"\x00" in data[:4096]:
        raise ValueError(f"mislabelled: the file is {named or 'binary data'}, not an e-mail")
    message = email.message_from_bytes(data, policy=email.policy.default)
    if not isinstance(message, EmailMessage) or not (message.get("From") or message.get("Subject")):
        raise ValueError("not an e-mail: no From or Subject header")
    return message_text(message)
