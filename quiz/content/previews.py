"""The preview of a content pack: each card's title, infraction and the engine's verdict."""

from __future__ import annotations

from typing import Mapping, Sequence

import pandas as pd

from quiz.content.card_kinds import preview_answer
from quiz.content.packs import CardPreview
from quiz.model.rulesets import Ruleset

PREVIEW_COLUMNS = ["file", "card_id", "game", "kind", "title", "infraction", "verdict"]


def preview_table(
    previews: Sequence[CardPreview], rulesets: Mapping[str, Ruleset], language: str,
    kinds: Mapping[str, str], no_fix: str, no_listed: str = "", left_to_judge: str = "",
) -> pd.DataFrame:
    """One row per card; ``kinds`` names the card kinds, ``no_fix`` is said when no fix is required.

    A scenario's verdict reads "penalty · fix, fix"; a knowledge card's is its right answer; a
    judgement call's infraction is its nearest one (``no_listed`` when none covers the case)
    and its verdict ``left_to_judge``.
    """
    rows = []
    for preview in previews:
        card = preview.card
        ruleset = rulesets.get(card.ruleset)
        game = ruleset.document.short_name.get(language) if ruleset is not None else card.ruleset
        infraction, verdict = preview_answer(card, ruleset, preview.verdict, language, no_fix, no_listed,
                                             left_to_judge)
        rows.append({
            "file": preview.file, "card_id": card.id, "game": game, "kind": kinds.get(card.kind, card.kind),
            "title": card.title.get(language), "infraction": infraction, "verdict": verdict,
        })
    return pd.DataFrame.from_records(rows, columns=PREVIEW_COLUMNS)
