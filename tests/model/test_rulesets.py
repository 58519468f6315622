"""Looking up a ruleset's items by id, and the infraction choices an answer form shows."""

from __future__ import annotations

import pytest

from quiz.model.errors import UnknownIdError
from quiz.model.rulesets import Ruleset
from tests.shipped_content import shipped_content

RULESETS = sorted(shipped_content().rulesets.values(), key=lambda ruleset: ruleset.id)


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda ruleset: ruleset.id)
def test_every_item_is_found_by_its_id_and_an_unknown_id_by_none(ruleset: Ruleset) -> None:
    for kind, items in (("infraction", ruleset.infractions), ("penalty", ruleset.ladder),
                        ("fix", ruleset.fixes), ("category", ruleset.categories)):
        lookup = getattr(ruleset, kind)
        for item in items:
            assert lookup(item.id) is item
        assert lookup("no-such-id") is None
        with pytest.raises(UnknownIdError):
            ruleset.known(kind, "no-such-id")


@pytest.mark.parametrize("language", ["ja", "en"])
@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda ruleset: ruleset.id)
def test_infraction_labels_name_category_and_infraction_in_the_categories_order(ruleset: Ruleset,
                                                                               language: str) -> None:
    labels = ruleset.infraction_labels(language)
    assert sorted(labels) == sorted(i.id for i in ruleset.infractions)
    category_order = [c.id for c in ruleset.categories]
    shown = [ruleset.known("infraction", infraction_id).category for infraction_id in labels]
    assert shown == sorted(shown, key=category_order.index)
    for infraction in ruleset.infractions:
        category = ruleset.known("category", infraction.category)
        assert labels[infraction.id] == f"{category.name.get(language)} › {infraction.name.get(language)}"
    assert ruleset.infraction_labels(language) is labels  # drawn once per language, not per form


def test_labels_of_one_language_are_not_served_for_another() -> None:
    ruleset = RULESETS[0]
    japanese, english = ruleset.infraction_labels("ja"), ruleset.infraction_labels("en")
    assert japanese.keys() == english.keys()
    assert japanese != english
