"""Categories: the ``ruleset/category`` key every card, answer and chart is grouped by, its
label, and the reserved ``knowledge`` id of cards that no infraction's category fits.

One module owns them: keys are built and split here only, labels made here only, and the
loader refuses a ruleset that declares the reserved id as a category of its own.
"""

from __future__ import annotations

from quiz.content.card_kinds import practised_infraction
from quiz.content.loader import Content
from quiz.model.cards import AnyCard
from quiz.model.rulesets import KNOWLEDGE_CATEGORY

KNOWLEDGE = KNOWLEDGE_CATEGORY  # reserved (the ruleset model refuses it as a category id)
KEYS_MEMO = "card_category_keys"
SEPARATOR = "/"


def category_key(ruleset_id: str, category_id: str | None) -> str:
    """``ruleset/category``; a missing category (a knowledge card's answer) is ``knowledge``."""
    return f"{ruleset_id}{SEPARATOR}{category_id or KNOWLEDGE}"


def split_key(key: str) -> tuple[str, str]:
    """(ruleset id, category id) of a key."""
    ruleset_id, _, category_id = key.partition(SEPARATOR)
    return ruleset_id, category_id


def card_category(content: Content, card: AnyCard) -> str:
    """The category a card is practised under: its judged (or nearest) infraction's, or ``knowledge``."""
    ruleset = content.rulesets[card.ruleset]
    infraction = ruleset.infraction(practised_infraction(ruleset, card) or "")
    return infraction.category if infraction else KNOWLEDGE


def category_keys(content: Content) -> dict[str, str]:
    """Card id -> its category key, computed once (it judges every card; a content snapshot
    brings it along, see ``remember_category_keys``)."""
    return content.memo(KEYS_MEMO, lambda: {
        card.id: category_key(card.ruleset, card_category(content, card)) for card in content.cards.values()
    })


def remember_category_keys(content: Content, keys: dict[str, str]) -> None:
    """Give ``content`` the category keys computed earlier for the very same content."""
    content.memo(KEYS_MEMO, lambda: dict(keys))


def category_labels(content: Content, language: str, knowledge: str) -> dict[str, str]:
    """Every category key of the content -> ``Game › Category`` in ``language`` (the reserved
    one named ``knowledge``), in ruleset and declaration order."""
    labels: dict[str, str] = {}
    for ruleset in content.rulesets.values():
        game = ruleset.document.short_name.get(language)
        for category in ruleset.categories:
            labels[category_key(ruleset.id, category.id)] = f"{game} › {category.name.get(language)}"
        labels[category_key(ruleset.id, KNOWLEDGE)] = f"{game} › {knowledge}"
    return labels
