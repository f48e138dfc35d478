"""casino-sim's version, the one source of it (pyproject.toml reads it; the package gives it as __version__)."""

VERSION = "0.1.0"
