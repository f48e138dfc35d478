"""One formatter for every number a user reads: a value the tables hold once shows one text everywhere, whatever
float noise the way it was summed left in its last bits."""

from __future__ import annotations

import pandas as pd

from casino_sim.core.numbers import number
from casino_sim.reports.headlines import _place_summary_lines, ci_text, convergence_lines

SUMMED_TWO_WAYS = (0.9975, 0.9974999999999999)  # a run's summary and convergence tables held these for one mean


def test_a_value_rounds_half_up_however_it_was_summed():
    assert {number(x, "+.3f") for x in SUMMED_TWO_WAYS} == {"+0.998"}
    assert number(0.45105, ".1%") == "45.1%" and number(0.00045, ".1%") == "0.0%"
    assert number(-0.0125, "+.2f") == "-0.01" and number(1234.5, ",.0f") == "1,235"
    assert number(2.125, ".2f") == "2.13"  # half up, not Python's half to even of the binary value (2.12)


def test_the_summary_and_the_convergence_line_show_one_mean_alike():
    mean, noisy = SUMMED_TWO_WAYS
    summary = pd.DataFrame(
        [
            {
                "matchup": "expert vs greedy",
                "policy_a": "expert",
                "deals": 2000,
                "rounds": 6000,
                "void_rounds": 0,
                **{f"diff_{k}": v for k, v in zip(("mean", "ci_lo", "ci_hi"), (mean, 0.93, 1.06), strict=True)},
                **{f"win_rate_a_{k}": v for k, v in zip(("mean", "ci_lo", "ci_hi"), (0.45, 0.44, 0.46), strict=True)},
                "total_a_mean": 3.5595,
                "total_b_mean": 2.5625,
            }
        ]
    )
    convergence = pd.DataFrame(
        [{"matchup": "expert vs greedy", "deals": 2000, "mean": noisy, "ci_lo": 0.93, "ci_hi": 1.06}]
    )
    assert (
        "+0.998 [" in _place_summary_lines(summary)[0]
        and "mean totals 3.56 vs 2.56" in _place_summary_lines(summary)[0]
    )
    assert "the running mean is +0.998," in convergence_lines(convergence)[0]
    assert ci_text({"mean": noisy, "ci_lo": 0.9345, "ci_hi": 1.0605}) == "+0.998 [+0.935, +1.061]"
