"""String tables: complete in both languages, and every key the UI uses exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from quiz.report.i18n import pick_language, strings, t

ROOT = Path(__file__).resolve().parents[2]


def test_both_tables_have_the_same_keys():
    assert set(strings("ja")) == set(strings("en"))


def test_every_static_key_used_by_the_ui_exists():
    used = set()
    for path in [ROOT / "app.py", *(ROOT / "quiz" / "ui").rglob("*.py")]:
        used |= set(re.findall(r"""\bt\(\s*["']([a-z_]+\.[a-z_.]+)["']""", path.read_text(encoding="utf-8")))
    assert len(used) > 50
    assert sorted(used - set(strings("en"))) == []


@pytest.mark.parametrize("prefix", ["scope.", "mark.", "part.", "chart."])
def test_dynamic_key_families_exist(prefix):
    assert any(key.startswith(prefix) for key in strings("en"))


def test_placeholders_are_filled():
    assert t("progress.days", "en", n=4) == "4 days"
    assert t("progress.days", "ja", n=4) == "4日"


def test_unknown_key_is_an_error():
    with pytest.raises(KeyError):
        t("no.such.key", "en")


@pytest.mark.parametrize(
    ("requested", "locale", "expected"),
    [("en", "ja-JP", "en"), (None, "ja-JP", "ja"), (None, "en-US", "en"), (None, None, "ja"), ("xx", "fr", "en")],
)
def test_pick_language(requested, locale, expected):
    assert pick_language(requested, locale) == expected
