"""What a report page (reports/webpage.py) shows, read back: its tables' cells by CSV file, its charts, its links."""

from __future__ import annotations

import csv
import io
from html.parser import HTMLParser
from pathlib import Path


class PageReader(HTMLParser):
    """tables: CSV name -> rows of cell texts as the CSV writes them (a formatted number's data-value; the header
    first); shown: the same as the page shows them; charts: data-chart of each inline svg; sources: every
    src/href value; manifest: (key, value) rows of the manifest table."""

    def __init__(self):
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.shown: dict[str, list[list[str]]] = {}
        self.charts: list[str] = []
        self.sources: list[str] = []
        self.manifest: list[list[str]] = []
        self.tags: set[str] = set()
        self._rows = None
        self._shown = None
        self._cell = None
        self._value = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.add(tag)
        self.sources += [v for k, v in attrs if k in ("src", "href", "xlink:href") and v is not None]
        if tag == "svg" and "data-chart" in a:
            self.charts.append(a["data-chart"])
        elif tag == "table":
            self._rows = self.tables.setdefault(a["data-csv"], []) if "data-csv" in a else self.manifest
            self._shown = self.shown.setdefault(a["data-csv"], []) if "data-csv" in a else []
        elif tag == "tr" and self._rows is not None:
            self._rows.append([])
            self._shown.append([])
        elif tag in ("td", "th") and self._rows is not None:
            self._cell, self._value = [], a.get("data-value")

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            text = "".join(self._cell)
            self._rows[-1].append(text if self._value is None else self._value)
            self._shown[-1].append(text)
            self._cell = None
        elif tag == "table":
            self._rows = self._shown = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def read_page(path: Path) -> PageReader:
    reader = PageReader()
    reader.feed(Path(path).read_text(encoding="utf-8"))
    return reader


def csv_rows(path: Path) -> list[list[str]]:
    """A CSV file's rows as the texts of its cells."""
    return list(csv.reader(io.StringIO(Path(path).read_text(encoding="utf-8"))))
