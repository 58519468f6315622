"""Cross-reference checks of a card against its ruleset, of its answer key, and that its title
never names the answer."""

from __future__ import annotations

import unicodedata
from typing import Iterable

from quiz.content.finding_checks import finding_problems
from quiz.content.ruleset_checks import Finding
from quiz.content.variant_checks import Judged, changing_answer, judge_every_showing, variant_problems
from quiz.model.cards import JudgementCallCard, RulingCard
from quiz.model.errors import QuizError, UndecidedCaseError, unknown_id
from quiz.model.rulesets import Ruleset
from quiz.model.text import LANGUAGES, Text
from quiz.model.words import Wording
from quiz.rules.engine import judge

AnswerName = tuple[Wording, Text]  # what the name is of ("the answer's penalty"), and the name
NEAREST_INFRACTION = Wording("problem.title.nearest_infraction")
ANSWER_INFRACTION = Wording("problem.title.answer_infraction")
ANSWER_PENALTY = Wording("problem.title.answer_penalty")


def check_judgement_call(card: JudgementCallCard, ruleset: Ruleset) -> list[Finding]:
    """Every listed line and the principle exist, and the title names none of the lines; stated
    facts are ones the document does not decide under the first listed line (the line they are
    stated against: the others are lines a judge leans on by analogy, whose act the case is not)."""
    found: list[Finding] = []
    if not any(p.id == card.principle for p in ruleset.principles):
        found.append((("principle",), unknown_id("principle", card.principle, (p.id for p in ruleset.principles))))
    lines = card.nearest_lines
    if not lines:
        if card.facts:
            found.append((("facts",), Wording("problem.card.facts_without_nearest")))
        return found
    names: list[AnswerName] = []
    for index, line in enumerate(lines):
        infraction = ruleset.infraction(line)
        if infraction is None:
            where: tuple[str | int, ...] = ("nearest", index) if isinstance(card.nearest, list) else ("nearest",)
            found.append((where, unknown_id("infraction", line, (i.id for i in ruleset.infractions))))
        else:
            names.append((NEAREST_INFRACTION, infraction.name))
    if len(names) < len(lines):
        return found
    found += title_problems(card.title, names)
    if not card.facts:
        return found
    try:
        verdict = judge(ruleset, lines[0], card.facts)
    except UndecidedCaseError:
        return found
    except QuizError as error:
        return found + [(("facts",), error.wording)]
    return found + [(("facts",), Wording("problem.card.document_decides", penalty=verdict.penalty,
                                         trace=" > ".join(verdict.trace)))]


def check_scenario(card: RulingCard, ruleset: Ruleset) -> list[Finding]:
    if ruleset.infraction(card.infraction) is None:
        return [(("infraction",), unknown_id("infraction", card.infraction, (i.id for i in ruleset.infractions)))]
    found = finding_problems(card, ruleset) + variant_problems(card, ruleset)
    if found:
        return found
    found, judged = judge_every_showing(card, ruleset)
    if found:
        return found
    found = title_problems(card.title, _answer_names(card, ruleset, judged))
    expect = card.expect
    if expect is None:
        return found
    changing = changing_answer(judged)
    if changing is not None:
        return found + [(("expect",), changing)]
    verdict = judged[0][1]
    if ruleset.penalty(expect.penalty) is None:
        found.append((("expect", "penalty"), unknown_id("penalty", expect.penalty)))
    elif expect.penalty != verdict.penalty:
        found.append((("expect", "penalty"), Wording("problem.card.expects_penalty", expected=expect.penalty,
                                                     actual=verdict.penalty, trace=" > ".join(verdict.trace))))
    unknown_fixes = [f for f in expect.fixes if ruleset.fix(f) is None]
    if unknown_fixes:
        found.append((("expect", "fixes"), unknown_id("fix", unknown_fixes[0])))
    elif set(expect.fixes) != set(verdict.fixes):
        found.append((("expect", "fixes"), Wording("problem.card.expects", expected=sorted(expect.fixes),
                                                   actual=sorted(verdict.fixes))))
    if expect.infraction is not None and expect.infraction != verdict.infraction:
        found.append((("expect", "infraction"), Wording("problem.card.expects_infraction",
                                                        expected=expect.infraction, actual=verdict.infraction)))
    if expect.players is not None and expect.players != verdict.players:
        found.append((("expect", "players"), Wording("problem.card.expects", expected=expect.players,
                                                     actual=verdict.players)))
    return found


def _answer_names(card: RulingCard, ruleset: Ruleset, judged: Judged) -> list[AnswerName]:
    """The names of every infraction and penalty a scenario card's answer key holds: the
    engine's verdict for every showing (its infraction, standard and accepted penalties),
    and what ``expect`` states."""
    infractions = [verdict.infraction for _, verdict in judged]
    penalties = [penalty for _, verdict in judged for penalty in verdict.accepted]
    if card.expect is not None:
        infractions += [card.expect.infraction] if card.expect.infraction is not None else []
        penalties.append(card.expect.penalty)
    names = [(ANSWER_INFRACTION, infraction.name)
             for infraction in map(ruleset.infraction, dict.fromkeys(infractions)) if infraction is not None]
    return names + [(ANSWER_PENALTY, penalty.name)
                    for penalty in map(ruleset.penalty, dict.fromkeys(penalties)) if penalty is not None]


def title_problems(title: Text, names: Iterable[AnswerName]) -> list[Finding]:
    """Findings for a title (as written: a variant's template, placeholders and all) that
    contains, in either language, one of ``names`` in either language, compared after NFKC
    normalisation and case-folding (full-width ＷＡＲＮＩＮＧ is Warning). A card shows its
    title only once answered, but titles also name cards elsewhere (lists, reports, previews),
    so they describe the situation, never the answer. No name is too short to
    count: the shortest are two-kanji penalties (注意, 警告, 失格), and a title holding one
    names the answer whether it meant to or not."""
    found: list[Finding] = []
    names = list(names)
    for title_language in LANGUAGES:
        shown = _folded(title.get(title_language))
        seen: set[str] = set()
        for what, name in names:
            for language in LANGUAGES:
                folded = _folded(name.get(language))
                if not folded or folded in seen or folded not in shown:
                    continue
                seen.add(folded)
                found.append((("title", title_language), Wording(
                    "problem.title.names_answer", what=what, name=name.get(language),
                    written_in=Wording(f"problem.language.{language}"))))
    return found


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().strip()
