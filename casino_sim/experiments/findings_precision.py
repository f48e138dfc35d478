"""`findings --precision`: the strongest policy's runs go on past --until-ci until every headline finding is as
precise as asked (reports/findings.py target: the seat advantage and the scoring cards' values to the precision in
points, sweeps, plays and builds per round to a fifth of it), or --deals (docs/findings.md).

A run is carried on by simulate's own extension: a narrower --until-ci on resume (experiments/resume.py), chosen so
that the headline's width, shrinking as 1/sqrt(n), reaches it at about the deals the least precise finding needs.
The run keeps its seed and chunks, so it equals a fresh run stopped there, and a run cut short, or a folder made
before --precision, resumes the same way: its manifest says how far it went.
"""

from __future__ import annotations

import math

SLACK = 1.1  # aim a tenth past the estimate, so that one extension usually meets every target


def narrower(manifest: dict, factor: float) -> float | None:
    """The --until-ci width that carries a run on to about `factor` (reports/findings.py shortfall) times its deals;
    None when it goes no further: every target met (factor <= 1), its --deals cap reached before its --until-ci, or
    no --until-ci stop recorded (a run played to its cap)."""
    stop = manifest.get("until_ci_stop") or {}
    width = stop.get("width")
    if factor <= 1 or not stop.get("reached") or not width or not math.isfinite(width):
        return None
    return width / math.sqrt(factor * SLACK) if math.isfinite(factor) else width / 2
