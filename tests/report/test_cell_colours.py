"""A heatmap's numbers are readable on every cell: at least 4.5:1 against their cell."""

from __future__ import annotations

import pytest

from quiz.report.cell_colours import BLACK, DARKEST, LIGHTEST, WHITE, cell_fill, contrast, ink_on, luminance


@pytest.mark.parametrize(("first", "second", "ratio"), [
    ("#000000", "#ffffff", 21.0), ("#ffffff", "#ffffff", 1.0), ("#777777", "#ffffff", 4.48),
    ("#3b5bdb", "#ffffff", 5.67),  # the app's primary blue, white on it
])
def test_the_contrast_ratio_is_wcags(first: str, second: str, ratio: float) -> None:
    assert contrast(first, second) == pytest.approx(ratio, abs=0.01)
    assert contrast(second, first) == contrast(first, second)


def test_every_cell_s_number_contrasts_at_least_4_5_to_1() -> None:
    for step in range(1001):
        fill = cell_fill(step / 1000)
        assert contrast(ink_on(fill), fill) >= 4.5, fill


def test_the_lightest_cell_has_black_numbers_and_the_darkest_white() -> None:
    """The busiest cells are dark navy, where black numbers were 1.5:1."""
    assert cell_fill(0) == "#f7fbff" and cell_fill(1) == "#08306b"
    assert ink_on(cell_fill(0)) == BLACK and ink_on(cell_fill(1)) == WHITE
    assert contrast(BLACK, cell_fill(1)) < 2


def test_a_larger_share_is_a_darker_cell() -> None:
    shades = [luminance(tuple(int(cell_fill(n / 20)[i:i + 2], 16) for i in (1, 3, 5))) for n in range(21)]
    assert shades == sorted(shades, reverse=True)
    assert luminance(LIGHTEST) > luminance(DARKEST)
    assert cell_fill(-1) == cell_fill(0) and cell_fill(2) == cell_fill(1)
