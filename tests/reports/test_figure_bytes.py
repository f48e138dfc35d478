"""Charts are files users diff and commit (results/): the same figure must give the same bytes."""

from matplotlib.figure import Figure

from casino_sim.reports.output import save_figure


def _figure() -> Figure:
    fig = Figure(figsize=(3, 2))
    ax = fig.add_subplot()
    ax.bar(["a", "b"], [1.0, 2.0])  # bars inside axes get clip paths, whose ids matplotlib salts at random
    ax.set_title("same data")
    return fig


def test_same_figure_same_svg_and_png_bytes(tmp_path):
    first = save_figure(_figure(), tmp_path / "one", "chart")
    second = save_figure(_figure(), tmp_path / "two", "chart")
    assert [p.name for p in first] == ["chart.png", "chart.svg"]
    assert 'clip-path="url(#' in first[1].read_text()
    for a, b in zip(first, second, strict=True):
        assert a.read_bytes() == b.read_bytes(), a.name
