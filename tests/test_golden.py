"""Every number a user reads from the golden cases is byte-identical to the committed outputs."""

from __future__ import annotations

import pytest

from tests.support.golden_outputs import CASES, GOLDEN, produce


@pytest.mark.parametrize("name", sorted(CASES))
def test_outputs_are_byte_identical(name, tmp_path):
    kept = {p.name: p.read_bytes() for p in sorted((GOLDEN / name).iterdir())}
    assert kept, f"no golden files for {name}: run python -m tests.support.golden_outputs"
    now = produce(name, tmp_path)
    assert sorted(now) == sorted(kept)
    changed = [f for f in kept if now[f] != kept[f]]
    assert not changed, f"{name}: {changed} differ from tests/golden/{name}"
