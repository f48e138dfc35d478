"""`simulate --resume DIR`: the run's own options, checked against those given again.

A resumed run finishes as it was started: an option that contradicts the manifest is refused in one line. Two may
ask for more: a larger --deals extends the run (the same per-chunk seeds, so it equals a fresh run of that size)
and a narrower --until-ci goes on to it. Where and how fast it plays (--threads, --backend, --scheduler,
--bot-timeout) may change freely.
"""

from __future__ import annotations

from dataclasses import replace

from casino_sim.core.fields import FieldError, cli_word
from casino_sim.core.lists import listed
from casino_sim.experiments.declarations import SIMULATE
from casino_sim.experiments.simulate import SimConfig, config_of
from casino_sim.policies.policy import Load
from casino_sim.runner.run_state import RUNNING, now, update_manifest
from casino_sim.runner.rundir import RunDir

# options that change where and how fast a run plays, never its tables
FREE = frozenset({"threads", "backend", "scheduler", "bot_timeout", "resume"})
OFF_WORDS = {"games": "--rounds", "check": "no --check"}  # flags whose off is not --no-NAME on the command line


def option_text(name: str, value) -> str:
    """An option given with its value, for FieldError: `{policy} expert`, `{mirrored:off}` (a flag of simulate's,
    not tournament's count of --games), `{check:off}`."""
    if isinstance(value, bool):
        return "{" + name + (":on}" if value else ":off}")
    if isinstance(value, list | tuple):
        return f"{name} {', '.join(map(str, value))}"
    return "{" + name + "} " + str(value)


def _resume_word(name: str, state: str = "") -> str:
    """The command line's words for a refused resume: cli_word, but --rounds for whole games off."""
    return OFF_WORDS.get(name, cli_word(name, state)) if state == "off" else cli_word(name, state)


def _run_value(name: str, config: SimConfig, manifest: dict):
    """The run's value of simulate's option `name`, as the option would give it."""
    if name == "card_deals":
        return "auto" if manifest.get("card_deals_auto") else config.card_deals
    return getattr(config, SIMULATE[name].stored_as)


def _differs(name: str, given, ran, config: SimConfig) -> bool:
    if name == "card_deals":
        return str(given).strip().lower() != str(ran).lower()
    if name == "deals":
        return given < ran
    if name == "until_ci":  # narrower goes on to it (a fresh run would have passed every earlier boundary too)
        return ran is None or given is None or given > ran
    if name == "seats":
        return (given or None) != (ran or None)
    return given != ran


def resume_config(run: RunDir, given: dict, command: list[str], loader: Load) -> SimConfig:
    """The config `--resume` plays for options `given` on the command line (simulate's names), its policies
    resolved by `loader`; FieldError naming every option that contradicts the run. A larger --deals or a narrower
    --until-ci is written into the manifest (the chunks a fresh run of that size would play otherwise are played
    again)."""
    config, manifest = config_of(run, loader), run.read_manifest()
    asked = {k: v for k, v in given.items() if k not in FREE}
    if "out" in asked:
        raise FieldError(("out", "resume"), "{out} names a new run's folder and {resume} an old one: give one of them")
    wrong = [k for k, v in asked.items() if _differs(k, v, _run_value(k, config, manifest), config)]
    grow = " (a larger {deals} extends it)" if "deals" in wrong else ""
    _refuse(wrong, asked, {k: _run_value(k, config, manifest) for k in wrong}, grow)
    if "threads" in given:
        config = replace(config, threads=given["threads"])
    deals, until_ci = asked.get("deals", config.deals), asked.get("until_ci", config.until_ci)
    if (deals, until_ci) == (config.deals, config.until_ci):
        return config
    return _extend(run, config, manifest, deals, until_ci, command)


def refuse_changed(given: dict, theirs: dict) -> None:
    """For --resume of other folders (tournament, tune): FieldError naming every option `given` whose value is not
    the run's (`theirs`, its manifest's config by option name); lists and tuples compare alike."""
    asked = {k: v for k, v in given.items() if k not in FREE and k in theirs}

    def same(a, b) -> bool:
        return (tuple(a) if isinstance(a, list | tuple) else a) == (tuple(b) if isinstance(b, list | tuple) else b)

    wrong = [k for k, v in asked.items() if not same(v, theirs[k])]
    _refuse(wrong, asked, theirs)


def _refuse(wrong: list[str], asked: dict, theirs: dict, hint: str = "") -> None:
    """One line naming the options `wrong` (asked) and the run's values (theirs), or nothing when none is:
    FieldError naming them and resume."""
    if not wrong:
        return
    texts = [option_text(k, asked[k]) for k in wrong]
    mine = listed(texts)
    verb = "differs" if len(wrong) == 1 else "differ"
    values = ", ".join(_shown(k, theirs[k]) for k in wrong)
    text = f"{mine} {verb} from the run's ({values}): {{resume}} finishes a run as it was started{hint}"
    raise FieldError((*wrong, "resume"), text, _resume_word)


def _shown(name: str, value) -> str:
    if isinstance(value, bool):
        return _resume_word(name, "on" if value else "off")
    if isinstance(value, list | tuple):
        return ", ".join(map(str, value))
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def _extend(run: RunDir, old: SimConfig, manifest: dict, deals: int, until_ci, command: list[str]) -> SimConfig:
    """The run made larger: its config for `deals` (auto card deals counted again), the finished chunks a fresh
    run of that size plays otherwise dropped (the last short chunk, chunks whose paired deals change)."""
    if until_ci == old.until_ci is not None and (manifest.get("until_ci_stop") or {}).get("reached"):
        return old  # the interval was reached before the old cap: a fresh run of any size stops where it did
    auto = manifest.get("card_deals_auto")
    new = replace(old, deals=deals, until_ci=until_ci, card_deals=None if auto else old.card_deals)
    new.check()
    new = new.as_recorded()
    for chunk in sorted(run.finished_chunks()):
        if chunk >= new.n_chunks:
            continue
        if old.chunk_size(chunk) != new.chunk_size(chunk) or old.paired_deals(chunk) != new.paired_deals(chunk):
            run.drop_chunk(chunk)
    grown = list(manifest.get("extended", [])) + [
        {"deals": old.deals, "until_ci": old.until_ci, "to_deals": deals, "command": command, "at": now()}
    ]
    update_manifest(run, config=new.manifest_config(), status=RUNNING, extended=grown)
    return new
