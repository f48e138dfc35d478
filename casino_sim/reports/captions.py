"""The words around a chart: the footer naming its run, and tick labels cut to fit the axes."""

from __future__ import annotations

import textwrap
from pathlib import Path

from matplotlib.figure import Figure

from casino_sim.core.rules import get_rules
from casino_sim.policies.names import matchup, recorded_labels


def run_caption(manifest: dict, deals: str | None = None) -> str:
    """One line naming the run behind a chart: policies, rules, deals (or games) and seed, from its manifest.

    `deals` replaces the count (card values come from fewer deals than the run). Without a
    config the run's command line stands in; '' when the manifest says nothing.
    """
    cfg, label = manifest.get("config") or {}, recorded_labels(manifest)
    try:
        if manifest.get("kind") == "tournament":
            who = ", ".join(label(p) for p in cfg["policies"])
            count = f"{cfg['games']:,} mirrored pairs of games per pairing"
        elif manifest.get("kind") == "card-value":
            who, count = f"{label(cfg['policy'])} in both seats", f"{cfg['deals']:,} deals"
        else:
            who = matchup(cfg["policy_a"], cfg["policy_b"], cfg.get("seats"), cfg["rules"], label)
            n = deals_played(manifest)
            rounds = f"{n:,} deals" + ", mirrored" * bool(cfg.get("mirrored"))
            count = games_count(cfg, n) if cfg.get("games") else rounds
            count += f" (--until-ci {cfg['until_ci']})" if cfg.get("until_ci") else ""
        parts = (manifest.get("partial"), who, f"rules {cfg['rules']}", deals or count, f"seed {cfg['seed']}")
        return " · ".join(filter(None, parts))
    except (KeyError, TypeError, ValueError):
        cmd = command_text(manifest.get("command"))
        return f"run: {cmd}" if cmd else ""


def command_text(cmd) -> str:
    """A manifest's command line as a user would type it: `casino-sim ...`, not the install's path to it (nor
    `python -m casino_sim`'s __main__.py)."""
    if not isinstance(cmd, list) or not cmd:
        return str(cmd or "")
    first = str(cmd[0])
    if Path(first).name in ("casino-sim", "__main__.py"):
        first = "casino-sim"
    return " ".join([first, *map(str, cmd[1:])])


def deals_played(manifest: dict) -> int:
    """The deals of a simulate run: --deals, or those of its chunks when --until-ci stopped it early."""
    cfg = manifest["config"]
    if cfg.get("until_ci") and manifest.get("chunks") is not None:
        size = cfg["chunk_deals"]
        return sum(min(size, cfg["deals"] - c * size) for c in manifest["chunks"])
    return cfg["deals"]


def games_count(cfg: dict, n: int) -> str:
    """What a run of whole games counts, said alike on the terminal, in captions and in report.md: "600 games (300
    deals, each played in 2 seatings)" for n = 300. --deals counts deals (shuffle sequences), each played as one
    game per seating (docs/games.md)."""
    seatings = get_rules(cfg["rules"]).n_sides if cfg.get("mirrored", True) else 1
    each = f"each played in {seatings} seatings" if seatings > 1 else "one game each"
    return f"{n * seatings:,} games ({n:,} deals, {each})"


CAPTION_PT = 8
CHAR_WIDTH = 0.6  # a character's mean width in ems, generous: a caption wrapped to it never overflows


def add_caption(fig: Figure, caption: str) -> Figure:
    """Put `caption` (see run_caption) at the foot of the figure; the layout makes room for it.

    Wrapped to the figure's width: a line wider than the figure leaves constrained layout no room for the axes
    (matplotlib then warns and lays nothing out).
    """
    if caption:
        per_line = max(20, int(fig.get_figwidth() * 72 / (CAPTION_PT * CHAR_WIDTH)))
        text = "\n".join(textwrap.wrap(caption, per_line, break_on_hyphens=False)) or caption
        fig.supxlabel(text, fontsize=CAPTION_PT, color="0.3")
    return fig


LABEL_CHARS = 40  # a tick label longer than this is cut in the middle: it would squeeze the axes to nothing


def fit_label(text: str, limit: int = LABEL_CHARS) -> str:
    """`text`, or its start and end around an ellipsis when it is longer than `limit` characters."""
    text = str(text)
    if len(text) <= limit:
        return text
    head = (limit - 1) // 2
    return f"{text[:head]}…{text[len(text) - (limit - 1 - head) :]}"
