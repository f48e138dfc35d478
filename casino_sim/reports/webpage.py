"""`index.html`: a report folder as one self-contained page to open in a browser.

The page is made of what the report kinds already wrote, not computed again: the text of the folder's
report.md (or tournament.md), each chart's SVG file inlined, each table's CSV cells formatted as their column
means (the CSV's own text kept in the cell's data-value: the numbers on the page are the CSV's), the tables and
charts report.md does not name, and the run's manifest.
No scripts, styles or fonts from elsewhere: it opens offline.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from html import escape
from pathlib import Path

from casino_sim.core.numbers import number
from casino_sim.core.record import CATEGORY_LABELS
from casino_sim.reports.captions import command_text, run_caption
from casino_sim.reports.output import atomic_write

PAGE = "index.html"
MARKDOWN = ("report.md", "tournament.md")  # the text of a run's report, of a tournament's
OPEN_ROWS = 30  # longer tables start folded
STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1240px; padding: 0 1em; color: #222; }
h1 { margin-bottom: 0.2em; } h2 { border-bottom: 1px solid #ccc; padding-bottom: 0.2em; margin-top: 2em; }
.run { color: #555; } code { background: #f3f3f3; padding: 0 0.2em; }
figure { margin: 1em 0; } figure svg { max-width: 100%; height: auto; display: block; }
figcaption, caption, summary { color: #555; font-size: 0.9em; text-align: left; }
table { border-collapse: collapse; font-size: 0.8em; margin: 0.5em 0 1em; }
th, td { border: 1px solid #ddd; padding: 0.15em 0.5em; } th { background: #f3f3f3; }
table.manifest th { text-align: left; font-weight: normal; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.scroll { overflow-x: auto; max-width: 100%; }
th { vertical-align: bottom; } td.num { white-space: nowrap; }
"""
_IMAGE = re.compile(r"^!\[(?P<title>[^\]]*)\]\((?P<chart>[^)]+)\.png\)(?P<rest>.*)$")
_NUMBER = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^[-+]?inf$|^nan$")


def has_reports(folder: str | Path) -> bool:
    """Whether `folder` holds a written report (its report.md or tournament.md) to make the page from."""
    return any((Path(folder) / m).exists() for m in MARKDOWN)


def write_page(folder: str | Path, manifest: dict) -> Path:
    """Write `folder/index.html` from the report files in `folder` and the run's `manifest`; its path."""
    folder = Path(folder)
    return atomic_write(folder / PAGE, render_page(folder, manifest).encode())


def render_page(folder: Path, manifest: dict) -> str:
    """The page's HTML: report.md's sections with their charts and tables, the rest, then the manifest."""
    markdown = next((folder / m for m in MARKDOWN if (folder / m).exists()), None)
    lines = markdown.read_text(encoding="utf-8").splitlines() if markdown else ["# Report"]
    body, used = _sections(folder, lines)
    rest = _rest(folder, used)
    if rest:
        body.append(
            f"<section><h2>{'More tables and charts' if markdown else 'Tables and charts'}</h2>{rest}</section>"
        )
    body.append(_manifest_section(manifest))
    caption = run_caption(manifest)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(' · '.join(filter(None, ('casino-sim report', caption))))}</title>\n"
        f"<style>{STYLE}</style>\n</head>\n<body>\n"
        + (f'<p class="run">{escape(caption)}</p>\n' if caption else "")
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )


def _sections(folder: Path, lines: list[str]) -> tuple[list[str], set[str]]:
    """report.md as HTML: headings, paragraphs, lists; a chart line becomes its inline SVG, and the tables it
    names follow the section's text. Returns the HTML parts and the names (stems) of the files shown."""
    out, used, items, tables = [], set(), [], []

    def close_list():
        if items:
            out.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in items) + "</ul>")
            items.clear()

    def close_section():
        close_list()
        out.extend(_table(folder, t) for t in tables)
        tables.clear()

    for line in lines:
        image = _IMAGE.match(line)
        if line.startswith("# "):
            out.append(f"<h1>{_inline(line[2:])}</h1>")
        elif line.startswith("## "):
            close_section()
            out.append(f"<h2>{_inline(line[3:])}</h2>")
        elif line.startswith("- "):
            items.append(line[2:])
        elif image:
            close_list()
            chart, named = image["chart"], re.findall(r"([\w-]+)\.csv", image["rest"])
            out.append(_figure(folder, chart, image["title"]))
            tables += [t for t in named if t not in used and (folder / f"{t}.csv").exists()]
            used.update([chart, *named])
        elif line.strip():
            close_list()
            out.append(f"<p>{_inline(line)}</p>")
        else:
            close_list()
    close_section()
    return out, used


def _rest(folder: Path, used: set[str]) -> str:
    """The charts and tables in `folder` that report.md does not name, by file name."""
    charts = [p.stem for p in sorted(folder.glob("*.svg")) if p.stem not in used]
    tables = [p.stem for p in sorted(folder.glob("*.csv")) if p.stem not in used]
    return "".join([*(_figure(folder, c, c) for c in charts), *(_table(folder, t) for t in tables)])


def _inline(text: str) -> str:
    """One line of markdown text as HTML: escaped, with `code` spans."""
    parts = escape(text, quote=False).split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


def _figure(folder: Path, chart: str, title: str) -> str:
    """The chart's SVG file inline, its ids made its own (several charts share one page), with its title."""
    path = folder / f"{chart}.svg"
    if not path.exists():
        return f"<p>(chart {escape(chart)}.svg is missing)</p>"
    svg = path.read_text(encoding="utf-8")
    svg = svg[svg.index("<svg") :]  # the XML prolog and doctype have no place inside HTML
    prefix = f"{re.sub(r'[^A-Za-z0-9_-]', '_', chart)}--"
    svg = re.sub(r'(\bid="|href="#|url\(#)', lambda m: m.group(1) + prefix, svg)
    svg = svg.replace("<svg ", f'<svg role="img" aria-label="{escape(title)}" data-chart="{escape(chart)}" ', 1)
    return f"<figure>{svg}<figcaption>{escape(chart)}.svg</figcaption></figure>"


def _table(folder: Path, name: str) -> str:
    """The CSV file `name.csv` as an HTML table, each number formatted as its column means (cell_texts), its CSV
    text kept in the cell's data-value; long tables folded, wide ones scrolled inside their own box."""
    rows = list(csv.reader(io.StringIO((folder / f"{name}.csv").read_text(encoding="utf-8"))))
    if not rows:
        return ""
    head, body = rows[0], rows[1:]
    shown = table_texts(name, head, body)
    cells = "".join(
        "<tr>" + "".join(_cell(c, shown[k][i] if i < len(head) else c) for i, c in enumerate(row)) + "</tr>"
        for k, row in enumerate(body)
    )
    table = (
        f'<div class="scroll"><table data-csv="{escape(name)}.csv"><thead><tr>'
        + "".join(f'<th data-value="{escape(h)}">{escape(column_words(h))}</th>' for h in head)
        + f"</tr></thead><tbody>{cells}</tbody></table></div>"
    )
    what = f"table {escape(name)}.csv ({len(body):,} row{'' if len(body) == 1 else 's'})"
    return f"<details{' open' if len(body) <= OPEN_ROWS else ''}><summary>{what}</summary>{table}</details>"


def _cell(text: str, shown: str) -> str:
    """A table cell: what is shown, and the CSV's own text in data-value when the two differ."""
    value = "" if shown == text else f' data-value="{escape(text)}"'
    if not _NUMBER.match(text):
        return f"<td{value}>{escape(shown)}</td>"
    return f"<td class=num{value}>{escape(shown)}</td>"


_SHARE = re.compile(r"rate|share|^best_")  # a column (or table) of shares of rounds, games or decisions
_COUNT = re.compile(r"^[-+]?\d+$")


_INTERVAL = re.compile(r"^(?P<value>.*?)ci_(lo|hi)$")  # a bound of the interval around column value+"mean"
SUFFIX_WORDS = {"mean": "", "ci_lo": " low", "ci_hi": " high"}
ALONE_WORDS = {"ci_lo": "95% low", "ci_hi": "95% high", "diff": "A − B", "a": "A", "b": "B"}


def column_words(name: str) -> str:
    """A CSV column's name as the page's header says it: win_rate_a_mean -> win rate A, diff_ci_lo -> A − B low."""
    if name in ALONE_WORDS:
        return ALONE_WORDS[name]
    for suffix, word in SUFFIX_WORDS.items():
        if name.endswith(f"_{suffix}"):
            return column_words(name[: -len(suffix) - 1]) + word
    return " ".join(ALONE_WORDS.get(w, w) for w in name.split("_"))


def table_texts(table: str, head: list[str], body: list[list[str]]) -> list[list[str]]:
    """A CSV table's cells as the page shows them, row by row: each column as its values mean (cell_texts), an
    interval's bounds in the unit of its value, a row whose `unit` is a share (anatomy) in percent, and the score
    categories named as the charts name them."""
    columns = [[r[i] if i < len(r) else "" for r in body] for i in range(len(head))]
    formats = [_format(table, h, c) for h, c in zip(head, columns, strict=True)]
    for i, h in enumerate(head):
        if (bound := _INTERVAL.match(h)) and formats[i]:
            value = f"{bound['value']}mean"
            before = [k for k in range(i) if formats[k] and not _INTERVAL.match(head[k])]  # sweeps_distribution
            j = head.index(value) if value in head else (before[-1] if before else i)
            formats[i] = formats[j] or formats[i]
    shown = [[_number(t, f) if f else t for t in c] for c, f in zip(columns, formats, strict=True)]
    for k, row in enumerate(body):
        if "unit" in head and columns[head.index("unit")][k].startswith("share"):
            for i, h in enumerate(head):
                if h == "mean" or _INTERVAL.match(h):
                    shown[i][k] = _number(row[i], "share")
        if "category" in head:
            shown[head.index("category")][k] = CATEGORY_LABELS.get(
                row[head.index("category")], row[head.index("category")]
            )
    return [list(r) for r in zip(*shown, strict=True)] if shown else [[] for _ in body]


def cell_texts(table: str, column: str, texts: list[str]) -> list[str]:
    """A CSV column's cells as the page shows them (_format); text, empty cells and infinities as written."""
    fmt = _format(table, column, texts)
    return [_number(t, fmt) for t in texts] if fmt else texts


def _format(table: str, column: str, texts: list[str]) -> str | None:
    """How a column's numbers show: whole numbers as counts (1,234), shares (a column or table named for a rate
    or share, every value in 0..1) as percentages (52.3%), other numbers as points with three decimals; None for a
    column of no number."""
    finite = [t for t in texts if _NUMBER.match(t) and math.isfinite(float(t))]
    if not finite:
        return None
    values = [float(t) for t in finite]
    if all(_COUNT.match(t) for t in finite):
        return "count"
    if (_SHARE.search(column) or _SHARE.search(table)) and all(0 <= v <= 1 for v in values):
        return "share"
    return "count" if all(v.is_integer() and abs(v) < 2**53 for v in values) else "point"


def _number(text: str, fmt: str) -> str:
    """One cell: a count with thousands, a share in percent with one decimal, a point with three; a share or point
    too small for those with its first two or three significant digits, never in scientific notation."""
    if not _NUMBER.match(text) or not math.isfinite(x := float(text)):
        return text
    if fmt == "count":
        return f"{int(x):,}"
    if fmt == "share":
        return number(x, f".{_digits(x * 100, 2, 1)}%")
    return number(x, f".{_digits(x, 3, 3)}f")


def _digits(x: float, significant: int, usual: int) -> int:
    """Decimals to show: `usual`, or more for a value whose first `significant` digits would not show."""
    if x == 0 or abs(x) >= 0.5 * 10**-usual:
        return usual
    return max(usual, significant - 1 - math.floor(math.log10(abs(x))))


def readable(x: float) -> str:
    """A measured float (seconds, a rate) with sensible digits: 8,839 and 1.31, not 1.3117617579999887."""
    if x.is_integer() or abs(x) >= 100:
        return number(x, ",.0f")
    return number(x, f".{_digits(x, 3, 0) if abs(x) < 1 else 2 - math.floor(math.log10(abs(x)))}f")


def _manifest_section(manifest: dict) -> str:
    """The run's manifest (policies, rules, seed, deals, version, times, ...) as a two-column table."""
    if not manifest:
        return "<section><h2>Manifest</h2><p>This folder has no manifest.json.</p></section>"
    rows = "".join(f"<tr><th>{escape(k)}</th><td>{escape(v)}</td></tr>" for k, v in _flat(manifest))
    return f'<section><h2>Manifest</h2><table class="manifest">{rows}</table></section>'


def _flat(d: dict, prefix: str = "") -> list[tuple[str, str]]:
    """(dotted key, text) of every entry; the command as one line, lists and scalars as JSON text."""
    out = []
    for k, v in d.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            out += _flat(v, f"{key}.")
        elif key == "command" and isinstance(v, list):
            out.append((key, command_text(v)))
        elif isinstance(v, float) and math.isfinite(v):
            out.append((key, readable(v)))
        else:
            out.append((key, v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)))
    return out
