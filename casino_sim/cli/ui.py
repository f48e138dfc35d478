"""Terminal helpers: rich tables of the commands' results (the progress bar is runner/progress.py)."""

from __future__ import annotations

from casino_sim.core.numbers import number


def _table(title: str, columns):
    """A rich table whose first column is left-aligned and the rest right-aligned."""
    # deferred, so that `casino-sim --help` never loads them: rich's tables
    from rich.table import Table

    table = Table(title=title)
    for i, col in enumerate(columns):
        table.add_column(col, justify="left" if i == 0 else "right")
    return table


def summary_table(summary):
    """The headline per matchup as a rich table: A minus B per deal, round win rate, mean totals.

    A run of whole games (a `games` column) counts games and rounds, and its headline is per round."""
    # deferred, so that `casino-sim --help` never loads them: matplotlib
    from casino_sim.reports.headlines import ci_text

    games = "games" in summary.columns
    counts = ("games", "rounds") if games else ("deals",)
    many = "sides" in summary.columns and int(summary["sides"].max()) > 2  # B: the mean of the other sides
    table = _table(
        "Summary (95% intervals)",
        (
            "matchup",
            *counts,
            f"A − {'mean of others' if many else 'B'} per {'round' if games else 'deal'}",
            "A wins rounds" if games else "A wins",
            "A points",
            "others' points" if many else "B points",
        ),
    )
    for r in summary.to_dict("records"):
        table.add_row(
            r["matchup"],
            *(f"{r[c]:,}" for c in counts),
            ci_text(r, "diff_", "+.3f", counts[0]),
            ci_text(r, "win_rate_a_", ".1%"),
            number(r["total_a_mean"], ".2f"),
            number(r["total_b_mean"], ".2f"),
        )
    return table


def games_table(games):
    """Whole games per matchup as a rich table: A's game win rate, points margin, game length."""
    # deferred, so that `casino-sim --help` never loads them: matplotlib
    from casino_sim.reports.headlines import ci_text

    table = _table(
        "Whole games (95% intervals)", ("matchup", "games", "A wins", "A − B final points", "rounds per game")
    )
    for r in games.to_dict("records"):
        table.add_row(
            r["matchup"],
            f"{r['games']:,}",
            ci_text(r, "win_rate_a_", ".1%"),
            ci_text(r, "margin_", "+.2f", "games"),
            number(r["rounds_mean"], ".2f"),
        )
    return table


def ratings_table(ratings, matches):
    """A tournament as a rich table, best first (the heatmap's order): each policy's Elo and its game win
    rate against each opponent, with 95% intervals (Wilson for the win rates)."""
    # deferred, so that `casino-sim --help` never loads them: matplotlib
    from casino_sim.reports.headlines import ci_text
    from casino_sim.reports.tournament import strongest

    names = list(ratings["policy"])
    table = _table("Tournament: Elo and game win rate against each opponent (95% intervals)", ("policy", "Elo", *names))
    rate = {(r["policy"], r["opponent"]): r for r in matches.to_dict("records")}
    for r in ratings.to_dict("records"):
        cells = [
            ci_text(rate[(r["policy"], o)], "win_rate_", ".1%", "games") if (r["policy"], o) in rate else "—"
            for o in names
        ]
        table.add_row(r["policy"], ci_text(dict(r, elo_mean=r["elo"]), "elo_", ".0f"), *cells)
    table.caption = strongest(matches, ratings)
    return table


def card_values_table(values):
    """Every card's value as a rich table, most valuable first: one row per card, a column per place it moved to."""
    # deferred, so that `casino-sim --help` never loads them: matplotlib
    from casino_sim.reports.cardlines import card_verdict
    from casino_sim.reports.headlines import ci_text

    variants = list(dict.fromkeys(values["variant"].astype(str)))
    by = {(str(r["variant"]), r["label"]): r for r in values.to_dict("records")}
    first = values[values["variant"].astype(str) == variants[0]].sort_values("mean", ascending=False)
    labels = list(dict.fromkeys([*first["label"], *values["label"]]))  # cards never moved to the first come last
    table = _table(
        "Value of holding each card (points per deal, 95% intervals)",
        ("card", *(f"moved to the {v}" for v in variants)),
    )
    for label in labels:
        table.add_row(label, *(ci_text(by[(v, label)], "", "+.2f") if (v, label) in by else "—" for v in variants))
    table.caption = "\n".join(f"moved to the {v}: {card_verdict(g)}" for v, g in values.groupby("variant", sort=True))
    return table


def expectations_table(name: str, outcomes):
    """An experiment's expectations as a rich table: run, expectation, value, pass or FAIL."""
    # deferred, so that `casino-sim --help` never loads them: rich's tables
    from rich.table import Table

    table = Table(title=f"Experiment {name}: expectations")
    for col in ("run", "expectation", "value", "result"):
        table.add_column(col)
    for o in outcomes:
        table.add_row(
            o.run,
            str(o.expectation),
            number(o.value, ".1%" if "rate" in o.expectation.metric else "+.3f"),  # in the metric's unit
            "[green]pass[/green]" if o.passed else "[bold red]FAIL[/bold red]",
        )
    return table


def validation_table(name: str, rows: list[dict]):
    """A tuned policy against each opponent on fresh deals: its points per mirrored deal with the interval."""
    # deferred, so that `casino-sim --help` never loads them: matplotlib
    from casino_sim.reports.headlines import ci_text
    from casino_sim.reports.tune import validation_verdicts

    table = _table("Validation on fresh deals (95% intervals)", ("matchup", "deals", "A − B per deal"))
    for r in rows:
        table.add_row(f"{name} vs {r['opponent']}", f"{r['deals']:,}", ci_text(r))
    table.caption = "\n".join(validation_verdicts(name, rows))
    return table


def knockout_table(table, policy: str):
    """A knockout as a rich table, most valuable first: each worth with its interval, the deals, why it stopped."""
    # deferred, so that `casino-sim --help` never loads them: matplotlib
    from casino_sim.reports.headlines import ci_text
    from casino_sim.reports.skills import knockout_label, knockout_verdict

    out = _table(
        f"What each feature of {policy} is worth (points per mirrored deal, 95% intervals)",
        ("feature", "weight", "worth", "deals", "stopped"),
    )
    for r in table.to_dict("records"):
        worth = ci_text(r, "worth_", "+.3f") if r["deals"] else "—"
        out.add_row(knockout_label(r), f"{r['weight']:g}", worth, f"{r['deals']:,}", r["stopped"])
    out.caption = knockout_verdict(table)
    return out


def regret_table(table):
    """Regret per policy as a rich table: decisions judged, share played best, points lost per decision and round."""
    # deferred, so that `casino-sim --help` never loads them: matplotlib
    from casino_sim.reports.headlines import ci_text
    from casino_sim.reports.skills import regret_verdict

    out = _table(
        "Last-batch decisions against exact best play (95% intervals)",
        ("policy", "vs", "decisions", "best move played", "lost per decision", "lost per round"),
    )
    for r in table.to_dict("records"):
        out.add_row(
            r["policy"],
            r["vs"],
            f"{r['decisions']:,}",
            ci_text(r, "best_", ".1%", "decisions"),
            ci_text(r, "lost_per_decision_", ".3f", "deals"),
            ci_text(r, "lost_per_round_", ".3f", "deals"),
        )
    out.caption = regret_verdict(table)
    return out


def frame_table(title: str, kind: str, frame):
    """A report's table (`kind`: its file's name) as a rich table, its headers in words and its numbers as the
    page shows them (reports/webpage.py table_texts: one formatter)."""
    # deferred, so that `casino-sim --help` never loads them: the page's formatter
    from casino_sim.reports.webpage import column_words, table_texts

    head = [str(c) for c in frame.columns]
    body = [
        ["" if v != v or v is None else str(v) for v in row] for row in frame.itertuples(index=False)
    ]  # v != v: NaN
    words, texts = [column_words(h) for h in head], table_texts(kind, head, body)
    if len(texts) < len(head) > 8:  # a wide table of few rows (a summary) reads down: a column per row
        table = _table(title, ["figure", *(["value"] if len(texts) == 1 else map(str, range(1, len(texts) + 1)))])
        for j, word in enumerate(words):
            table.add_row(word, *(row[j] for row in texts))
        return table
    table = _table(title, words)
    for row in texts:
        table.add_row(*row)
    return table
