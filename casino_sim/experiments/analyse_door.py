"""analyse's front door: its options (experiments/study_declarations.py ANALYSE) checked once, the play-out policy
resolved once, the position checked before anything compiles; the command (cli/positions.py) and the API
(api/positions.py) both answer through it."""

from __future__ import annotations

from casino_sim.analysis import analyse
from casino_sim.analysis.analyse import Analysis, check_analysis_args, check_analysis_position
from casino_sim.engines.compiling import ensure_compiled
from casino_sim.experiments.study_declarations import ANALYSE
from casino_sim.policies.policy import Load
from casino_sim.reference.position import Position


def analysed(position: Position, values: dict, loader: Load) -> Analysis:
    """The analysis of `position` for analyse's values by field name (worlds, policy, seed): FieldError for a
    refused value, PositionError for a position no deal reaches, both before any compiling is announced."""
    ANALYSE.check(values)
    chosen = loader(values["policy"])
    check_analysis_args(chosen, values["worlds"], values["seed"])
    check_analysis_position(position)
    ensure_compiled("analyse")
    return analyse(position, chosen, values["worlds"], values["seed"])
