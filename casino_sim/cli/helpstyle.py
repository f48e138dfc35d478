"""One style for every command's --help: typer's panels, with the defects of its defaults taken out.

typer 0.29 prints `<bool>` after every flag (--help included) and `{position}` for a required argument; we show
flags bare, arguments as click does (POSITION, [POLICIES]...), and a default written in prose at the end of an
option's help, "(default: X)" or "(default X)", as typer's own `[default: X]`, so every default reads one way.
The app and its sub-apps use HelpGroup, their commands HelpCommand (cli/app.py, cli/policies.py).
"""

from __future__ import annotations

import re

from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

_PROSE_DEFAULT = re.compile(r"\s*\(default:? ([^()]+)\)(\.?)$")


class _Option(TyperOption):
    """An option whose flags show no value type and whose described default shows as written."""

    def display_type_rich(self, ctx):
        return None if self.is_flag and not self.count else super().display_type_rich(ctx)

    def _get_default_string(self, *, ctx, show_default_is_str, default_value):
        if show_default_is_str:  # typer would put the words in parentheses: [default: (local)]
            return str(self.show_default)
        return super()._get_default_string(
            ctx=ctx, show_default_is_str=show_default_is_str, default_value=default_value
        )


class _Argument(TyperArgument):
    """An argument named in capitals, required ones bare in the usage line and optional ones in brackets."""

    @property
    def display_name_raw(self) -> str:
        return self.metavar or (self.name or "").upper()

    def _usage_display_name(self) -> str:
        name = self.display_name_raw if self.required else f"[{self.display_name_raw}]"
        return name + ("..." if self.nargs != 1 else "")


def _adopt(param) -> None:
    """Give a typer parameter the help style above (once; a cheap no-op afterwards)."""
    if type(param) is TyperOption:
        param.__class__ = _Option
        found = _PROSE_DEFAULT.search(param.help or "")
        if found and not isinstance(param.show_default, str):
            param.help = param.help[: found.start()] + found.group(2)
            param.show_default = found.group(1)
    elif type(param) is TyperArgument:
        param.__class__ = _Argument


class _Styled:
    """get_params (what the help, the usage line and the parser read) hands out adopted parameters."""

    def get_params(self, ctx):
        params = super().get_params(ctx)
        for param in params:
            _adopt(param)
        return params


class HelpCommand(_Styled, TyperCommand):
    """A command with the help style above."""


class HelpGroup(_Styled, TyperGroup):
    """A group (the app, a sub-app) with the help style above."""
