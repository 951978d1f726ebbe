"""Retrieve: run the pending sub-queries through the entitlement-trimmed searcher, one hop."""

from __future__ import annotations

import re

from boundloop.domain.models import Evidence
from boundloop.domain.names import TITLE_PARTS
from boundloop.domain.place_kinds import PLACE_KIND
from boundloop.domain.usage import StopReason, Usage
from boundloop.graph.context import RunContext
from boundloop.graph.state import LoopState
from boundloop.graph.step_update import StepUpdate
from boundloop.policies.budget import check_before_retrieval_call, remaining_seconds
from boundloop.policies.errors import BoundloopError, StoreDamaged
from boundloop.retrieval.documents import SearchHit
from boundloop.retrieval.errors import SearchTimeout

MAX_HELD_EXTRA = 6
"""How many more results a search asks for so that passages already held do not crowd out new ones."""
MENTIONS_EXTRA = 6
"""How many more results a search for passages stating a name asks for: the ones stating it may rank lower."""


def _plain(text: str) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", text.casefold().replace("&", " and ")).split())


def stating_first(hits: list[SearchHit], name: str) -> list[SearchHit]:
    """The pages titled by `name`, then hits giving it as an entry's field, then in a document's header, then the rest.

    Without a name, the hits as ranked; within each tier, as ranked. A place's page ('Terminal Gdynia — site
    information') is its own entry, before rows of people who work there ('Site: Gdynia'). A bridge search for a role
    ranks the policy that names it beside the directory row that gives its person ('Role: Learning & Development
    Lead'); the row is what the bridge is for. A header block's field ('Owner: Head of People' under a policy's title)
    says who owns that document, not who holds the role: it comes after the entries. '&' and 'and' are the same.
    Prose that only mentions the name keeps its rank: a passing mention leads nowhere new.
    """
    if not name.strip():
        return hits
    key = _plain(name)
    tier = {h.chunk_id: TITLED if _titled(key, h.title) else _as_field(key, h.text, h.chunk_id.endswith("#0"))
            for h in hits}
    order = {TITLED: 0, ENTRY: 1, HEADER_FIELD: 2, None: 3}
    return sorted(hits, key=lambda h: order[tier[h.chunk_id]])


_PLACE_PAGE = re.compile(rf"{PLACE_KIND.pattern}|\b(?:guide|info|information)\b", re.IGNORECASE)
"""Words saying a title is about a place: 'Glasgow Office', 'Terminal Gdynia', 'Stavanger — site information'."""


def _titled(key: str, title: str) -> bool:
    """Whether the title is the page of the (plain) name as a place.

    A part of the title is the name with a kind of place ('Glasgow Office', 'Terminal Gdynia'), or the name alone
    beside a part saying it is a place's page ('Gdynia — site information'). Minutes titled 'Caddon Marsh WwTW —
    Inlet Screens Project Board' are about a project there, not the place's page.
    """
    parts = [" ".join(_plain(part).split()) for part in TITLE_PARTS.split(title) if part.strip()]
    for part in parts:
        first, _, rest = part.partition(" ")
        start, _, last = part.rpartition(" ")
        if (rest == key and _PLACE_PAGE.fullmatch(first)) or (start == key and _PLACE_PAGE.fullmatch(last)):
            return True
    return key in parts and any(_PLACE_PAGE.search(part) for part in parts if part != key)


_FIELD_SEPARATORS = re.compile(r"[;|:()\[\],]|\s[—–-]\s|\*\*")
"""What sets a field apart on a line: cells, a label's colon, an org chart's dash or brackets ('**Head of People**
— Marta Saraiva', 'Marta Saraiva (Head of People)')."""


ENTRY_WORDS = 6
"""At most this many words follow a name in an entry's next field ('— Marta Saraiva'); a label followed by a sentence
('**FSQM:** handles escalations and decides on any product on hold') describes, it is no entry."""
HEADER_LINES = 8
"""A document's header block: its first lines, where 'Owner:', 'Approved by:' and 'Effective date:' fields say who
owns and approved the document itself."""
ENTRY, HEADER_FIELD, TITLED = "entry", "header field", "titled"


def _as_field(key: str, text: str, header_block: bool = False) -> str | None:
    """How the text gives the (plain) name as a whole field: an `ENTRY`, a `HEADER_FIELD`, or not at all (None).

    'Role: Financial Controller;', an org chart's 'Head of People — Marta Saraiva' are entries. With `header_block`
    (the text is its document's first chunk) a lone 'Label: name' among the first `HEADER_LINES` lines is a header
    field ('Owner: Group Finance Controller' under a policy's title).
    """
    found: str | None = None
    for number, line in enumerate(text.splitlines()):
        fields = [f for f in _FIELD_SEPARATORS.split(line.strip().lstrip("-*+> ")) if f.strip()]
        for n, value in enumerate(fields):
            if _plain(value) == key and (n + 1 == len(fields) or len(fields[n + 1].split()) <= ENTRY_WORDS):
                if not (header_block and number < HEADER_LINES and len(fields) == 2 and n == 1):
                    return ENTRY
                found = HEADER_FIELD
    return found


def _within_documents(chunks: list[str], doc_of: dict[str, str], read: set[str],
                      room: int) -> tuple[list[str], bool]:
    """The chunks whose documents the run has read or can still read, and whether any was left out.

    `room` is how many more documents the run may read (`BOUNDLOOP_MAX_DOCUMENTS`): with room for one, a hit from
    a third document is left out of ['a#1', 'b#1', 'a#2', 'c#1'] when 'a' is already read.
    """
    kept: list[str] = []
    taken: set[str] = set()
    for chunk in chunks:
        doc = doc_of[chunk]
        if doc in read or doc in taken or len(taken) < room:
            kept.append(chunk)
            taken |= {doc} - read
    return kept, len(kept) < len(chunks)


def retrieve(state: LoopState, context: RunContext) -> StepUpdate:
    """Runs each pending search with the time left as its timeout; no call starts once the count is spent.

    Passages of documents past the documents limit are left unread, and the run then closes with what it has.
    """
    executed = set(state.get("executed", []))
    pending = [q for q in state.get("subqueries", []) if q.id not in executed]
    hop = context.usage().hops + 1
    evidence: list[Evidence] = []
    ran: list[str] = []
    calls = 0
    read_now: set[str] = set()
    update: dict = {"next_step": "evaluate"}
    reason = f"hop {hop}"
    stopped: StopReason | None = None
    held = {e.chunk_id for e in state.get("evidence", [])}
    read = {e.doc_id for e in state.get("evidence", [])}  # documents already read: reading them again is free
    counts: list[str] = []
    for query in pending:
        usage = context.usage(Usage(retrieval_calls=calls, documents=len(read_now)))
        stop = check_before_retrieval_call(usage, context.limits)
        if stop:
            stopped, reason = stop, f"{stop} limit reached before {query.id}"
            break
        calls += 1
        ran.append(query.id)
        try:
            # a later hop asks for k passages it does not hold yet: held ones come back too, and count for nothing
            hits = context.searcher.search(
                query.text, k=query.k + min(len(held), MAX_HELD_EXTRA) + (MENTIONS_EXTRA if query.mentions else 0),
                mode=query.mode,
                timeout=remaining_seconds(usage, context.limits),
            )
        except SearchTimeout:
            stopped, reason = "time", f"{query.id} ran out of time"
            break
        except StoreDamaged:
            raise  # not a passing outage: the operator must rebuild the index (the message says how)
        except BoundloopError as exc:
            update["retrieval_error"], reason = "search is unavailable", f"{query.id} failed: {type(exc).__name__}"
            break
        new = [h.chunk_id for h in stating_first(hits, query.mentions) if h.chunk_id not in held][: query.k]
        new, cut = _within_documents(new, {h.chunk_id: h.doc_id for h in hits}, read | read_now,
                                     context.limits.max_documents - usage.documents)
        read_now.update(h.doc_id for h in hits if h.chunk_id in new and h.doc_id not in read)
        counts.append(f"{query.id} found {len(new)}")
        evidence.extend(
            Evidence(chunk_id=h.chunk_id, doc_id=h.doc_id, title=h.title, text=h.text, score=h.score, hop=hop,
                     found_by=[query.id], rank=rank, page=h.page, sheet=h.sheet,
                     document_date=h.document_date, heading_path=h.heading_path or [], lead=h.lead)
            for rank, h in enumerate(hits, start=1) if h.chunk_id in held or h.chunk_id in new
        )
        if cut:  # passages of further documents were left unread: the run closes with what it has
            stopped, reason = "documents", f"documents limit reached in {query.id}"
            break
    update.update(evidence=evidence, executed=ran)
    found = len({e.chunk_id for e in evidence})
    decision = f"{calls} searches, {found} chunks" + (f": {', '.join(counts)}" if counts else "")
    spent = Usage(hops=1 if calls else 0, retrieval_calls=calls, documents=len(read_now))
    return StepUpdate(update, decision=decision, reason=reason, spent=spent, stopped=stopped)
