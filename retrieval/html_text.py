"""An HTML page's visible text and title, with its tables as Markdown tables so they chunk like Markdown ones."""

from __future__ import annotations

from html.parser import HTMLParser


def html_text(page: str) -> tuple[str, str]:
    """The page's <title> and its visible text."""
    parser = HtmlText()
    parser.feed(page)
    return parser.title.strip(), "".join(parser.parts)


_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}


class HtmlText(HTMLParser):
    """Visible text and <title> of an HTML page; scripts and styles are dropped.

    A table becomes a Markdown table (its first row the header when it is made of <th> cells), so each row is read
    like a Markdown row: 'Person: Ken Ito; Title: Data Protection Officer; Email: ken.ito@...'. A heading
    (<h1>-<h6>) becomes a Markdown heading line, so the rows and paragraphs under it are read under it.
    """

    _BLOCKS = {"p", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "br", "section", "article"}

    def __init__(self) -> None:
        super().__init__()
        self.title = ""
        self.parts: list[str] = []
        self._skip = 0
        self._in_title = False
        self._row: list[str] | None = None
        self._cell: list[str] | None = None
        self._headed = False
        self._rows_in_table = 0
        self._with_header = False
        self._tables = 0
        self._heading: tuple[int, list[str]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in {"script", "style"}:
            self._skip += 1
        elif tag == "title":
            self._in_title = True
        elif tag == "table":
            self.parts.append("\n\n")
            self._rows_in_table = 0
            self._tables += 1
        elif tag == "tr":
            self._row, self._headed = [], True
        elif tag in {"td", "th"} and self._row is not None:
            self._cell = []
            self._headed = self._headed and tag == "th"
        elif tag in _HEADINGS and self._row is None and not self._tables:
            self._break()
            self._heading = (int(tag[1]), [])
        elif tag in self._BLOCKS:
            self._break()

    def handle_endtag(self, tag: str) -> None:
        if tag in {"script", "style"} and self._skip:
            self._skip -= 1
        elif tag == "title":
            self._in_title = False
        elif tag in {"td", "th"} and self._row is not None and self._cell is not None:
            self._row.append(" ".join("".join(self._cell).replace("|", "/").split()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self._end_row(self._row)
            self._row = None
        elif tag == "table":
            self.parts.append("\n\n")
            self._tables = max(0, self._tables - 1)
        elif tag in _HEADINGS and self._heading is not None:
            level, words = self._heading
            self._heading = None
            text = " ".join("".join(words).split())
            self.parts.append(f"{'#' * level} {text}\n\n" if text else "")
        elif tag in self._BLOCKS:
            self._break()

    def _break(self) -> None:
        if self._cell is not None:
            self._cell.append(" ")
        else:
            self.parts.append("\n\n")

    def _end_row(self, row: list[str]) -> None:
        if not any(row):
            return
        if self._rows_in_table == 0:
            self._with_header = self._headed
        if self._with_header:
            self.parts.append("| " + " | ".join(row) + " |\n")
            if self._rows_in_table == 0:
                self.parts.append("| " + " | ".join("---" for _ in row) + " |\n")
        else:  # no header row: a line of its cells
            self.parts.append("\n\n" + "; ".join(c for c in row if c) + "\n\n")
        self._rows_in_table += 1

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        if self._in_title:
            self.title += data
        elif self._cell is not None:
            self._cell.append(data)
        elif self._heading is not None:
            self._heading[1].append(data)
        elif not self._tables:  # text between a table's cells is layout
            self.parts.append(data)
