"""Office formats read as the Markdown-like text the chunker reads: Word, PowerPoint, Excel and CSV, e-mail.

Each reader turns one file into an `OfficeText`: headings as `#` lines, tables as `| a | b |` rows under a header
rule, plus the document's own title and its properties (author, dates) as metadata. A file that cannot be read
(damaged, truncated, password-protected, macro-enabled, mislabelled) is a `ValueError` whose message says why.
"""
