"""The preview of a content pack: each card's title, infraction and the engine's verdict."""

from __future__ import annotations

from typing import Mapping, Sequence

import pandas as pd

from quiz.content.packs import CardPreview
from quiz.model.cards import JudgementCallCard, KnowledgeCard
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
        if isinstance(card, KnowledgeCard):
            infraction = ""
            verdict = next(c.text.get(language) for c in card.choices if c.id == card.answer)
        elif isinstance(card, JudgementCallCard):
            infraction, verdict = _nearest_name(card, ruleset, language, no_listed), left_to_judge
        else:
            infraction, verdict = _scenario_verdict(preview, ruleset, language, no_fix)
        rows.append({
            "file": preview.file, "card_id": card.id, "game": game, "kind": kinds.get(card.kind, card.kind),
            "title": card.title.get(language), "infraction": infraction, "verdict": verdict,
        })
    return pd.DataFrame.from_records(rows, columns=PREVIEW_COLUMNS)


def _nearest_name(card: JudgementCallCard, ruleset: Ruleset | None, language: str, no_listed: str) -> str:
    if card.nearest is None:
        return no_listed
    infraction = ruleset.infraction(card.nearest) if ruleset is not None else None
    return infraction.name.get(language) if infraction is not None else card.nearest


def _scenario_verdict(preview: CardPreview, ruleset: Ruleset | None, language: str, no_fix: str) -> tuple[str, str]:
    verdict = preview.verdict
    if verdict is None or ruleset is None:
        return "", ""
    infraction = ruleset.infraction(verdict.infraction)
    penalty = ruleset.penalty(verdict.penalty)
    fixes = [ruleset.fix(f) for f in verdict.fixes]
    fix_names = ", ".join(f.name.get(language) if f is not None else "?" for f in fixes) or no_fix
    return (
        infraction.name.get(language) if infraction is not None else verdict.infraction,
        f"{penalty.name.get(language) if penalty is not None else verdict.penalty} · {fix_names}",
    )
