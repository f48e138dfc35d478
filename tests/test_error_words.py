"""A user error names its fields (core/fields.py FieldError) and each adapter words them: no message of a user
error in casino_sim/ is written as the command line's `--option` first, which the API would show as it is."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "casino_sim"
NOT_YET: set[str] = set()  # every module converted


def _user_errors(trees: dict[Path, ast.Module]) -> set[str]:
    """The names of UserError and every class of the package derived from one, however deep."""
    names, grew = {"UserError"}, True
    while grew:
        found = {
            node.name
            for tree in trees.values()
            for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef) and any(getattr(b, "id", None) in names for b in node.bases)
        }
        grew, names = not found <= names, names | found
    return names


def _message_start(call: ast.Call) -> str | None:
    """The literal text a call's first argument starts with (a string, or an f-string's first piece)."""
    first = call.args[0] if call.args else None
    if isinstance(first, ast.JoinedStr) and first.values:
        first = first.values[0]
    return first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None


def option_first_messages(root: Path = PACKAGE) -> list[str]:
    """Where a user error's message starts with `--`: file:line."""
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in root.rglob("*.py")}
    errors = _user_errors(trees) - {"FieldError"}
    found = []
    for path, tree in trees.items():
        if path.name in NOT_YET:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) in errors:
                start = _message_start(node)
                if start is not None and start.lstrip().startswith("--"):
                    found.append(f"{path.relative_to(root.parent)}:{node.lineno}")
    return found


def test_no_user_error_starts_with_a_command_line_option():
    assert option_first_messages() == []


def test_the_scan_finds_an_option_first_message(tmp_path):
    """The scan is not blind: each way of writing such a message is found, a FieldError's text is not."""
    (tmp_path / "errors.py").write_text("class UserError(ValueError): ...\nclass BadThing(UserError): ...\n")
    (tmp_path / "mod.py").write_text(
        'raise InputError("--deals must be positive")\n'
        'raise BadThing(f"--seed must be >= 0, got {seed}")\n'
        'raise FieldError("deals", "must be positive")\n'
        'raise InputError(f"{path} holds no run")\n'
    )
    (tmp_path / "other.py").write_text("class InputError(UserError): ...\n")
    assert option_first_messages(tmp_path) == [f"{tmp_path.name}/mod.py:1", f"{tmp_path.name}/mod.py:2"]
