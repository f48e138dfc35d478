"""The lines simulate prints after a run: where --until-ci stopped, what a run of whole games counted, and how
many deals its card values replayed."""

from __future__ import annotations

from casino_sim.experiments.simulate import AUTO_CARD_DEALS_CAP, AUTO_CARD_DIVISOR, SimConfig
from casino_sim.reports.captions import deals_played, games_count


def notes(manifest: dict) -> list[str]:
    """Every line that applies to the finished run of `manifest`, in the order printed."""
    lines = (until_ci_note(manifest), games_note(manifest), card_deals_note(manifest))
    return [line for line in lines if line]


def games_note(manifest: dict) -> str | None:
    """With --games, what was counted: games, the deals (shuffle sequences) they came from, and rounds."""
    if not manifest["config"].get("games"):
        return None
    count = games_count(manifest["config"], deals_played(manifest))
    return f"whole games: {count}, {manifest['rounds_played']:,} rounds"


def card_deals_note(manifest: dict) -> str:
    """One line on a run's card values: how many deals they replayed, by which rule, and how to change it."""
    config = SimConfig(**manifest["config"])
    used = config.card_deals_used()
    if config.games:
        return "card values: not measured with --games (they replay single rounds)"
    engine = manifest["engine"]  # the engine that played (finish_run records it): no policy is loaded again
    share = f"1/{AUTO_CARD_DIVISOR[engine]} of the run's rounds on the {engine} engine"
    if used:
        how = (
            f"auto: at most {share}, {AUTO_CARD_DEALS_CAP} deals at most"
            if manifest.get("card_deals_auto")
            else f"--card-deals {used}"
        )
        return f"card values: the first {used:,} deals, replayed with each dealt card swapped away ({how})"
    why = (
        f"auto: the {config.pairs_per_deal} replays of one deal would take more than {share}"
        if manifest.get("card_deals_auto")
        else "--card-deals 0"
    )
    return f"card values: off ({why}); turn them on with --card-deals N"


def until_ci_note(manifest: dict) -> str | None:
    """With --until-ci, one line saying whether the interval reached the target, or the --deals cap came first."""
    stop = manifest.get("until_ci_stop")
    if not stop:
        return None
    target, cap, deals = manifest["config"]["until_ci"], manifest["config"]["deals"], stop["deals"]
    interval = f"the 95% interval of A − B is {stop['width']:.3f} wide"
    if not stop["reached"]:
        return f"--until-ci {target:g} not reached: {interval} after all {deals:,} deals (raise --deals to go on)"
    if deals < cap:
        return f"stopped early: {interval}, under --until-ci {target:g}, after {deals:,} deals"
    return f"--until-ci {target:g} reached at the --deals cap: {interval} after all {deals:,} deals"
