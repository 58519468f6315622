"""Every timed test is where the timed pass looks for it (tests/conftest.py refuses one
elsewhere at collection, with ``timed_strays``)."""

from __future__ import annotations

from tests.timed_tests import TIMED_FOLDER, timed_strays


class _Item:
    def __init__(self, nodeid: str, timed: bool) -> None:
        self.nodeid, self._timed = nodeid, timed

    def get_closest_marker(self, name: str) -> object | None:
        return object() if name == "timed" and self._timed else None


def test_a_timed_test_elsewhere_is_named_and_an_untimed_one_is_not() -> None:
    items = [_Item(f"{TIMED_FOLDER}/test_a.py::test_load", True), _Item("tests/ui/test_b.py::test_clock", True),
             _Item("tests/ui/test_c.py::test_page", False), _Item("tests/reliability_x/test_d.py::test_e", True)]
    assert timed_strays(items) == ["tests/ui/test_b.py::test_clock", "tests/reliability_x/test_d.py::test_e"]
