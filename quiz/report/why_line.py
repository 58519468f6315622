"""The one line of why a card's feedback leads with, under its verdict: the deciding
reason in a sentence; the marks, explanations and quoted lines are folded below it. On a card
with findings, a wrong penalty is said to be a wrong finding (the facts misjudged) or a
misapplied document (CONTENT.md revision 3). Pure: its words are the string tables'."""

from __future__ import annotations

from quiz.model.attempt import AttemptRecord, FindingRecord, PartResult
from quiz.model.cards import JudgementCallCard, KnowledgeCard
from quiz.model.facts import FactSpec
from quiz.model.rulesets import Ruleset
from quiz.model.verdict import CitedLine, Verdict
from quiz.model.words import t
from quiz.report.citations import DECISIVE_ROLES, short_title, source_citation
from quiz.rules.outline import places
from quiz.training.grading import ScenarioGrade

OPENING = "「『“‘(（["  # quotes and brackets a sentence's end inside does not end the sentence
CLOSING = {"「": "」", "『": "』", "“": "”", "‘": "’", "(": ")", "（": "）", "[": "]"}
ENDS = "。！？"  # a Japanese sentence ends at one of these; an English one at [.!?] before a space


def first_sentence(text: str) -> str:
    """The first sentence of ``text``: up to the first 。！？ (or . ! ? before a space or the
    end) outside quotes and brackets, so that a quoted line's own 。 does not cut it."""
    stack: list[str] = []
    straight = False  # inside "…"
    text = text.strip()
    for index, char in enumerate(text):
        if char == '"':
            straight = not straight
        elif char in OPENING:
            stack.append(CLOSING[char])
        elif stack and char == stack[-1]:
            stack.pop()
        elif not stack and not straight:
            after = text[index + 1:index + 2]
            if char in ENDS or (char in ".!?" and after in ("", " ", "\n")):
                return text[:index + 1]
    return text


def deciding_citation(verdict: Verdict) -> CitedLine | None:
    """The line that decides a verdict: its first rule, escalation or upgrade (an escalation
    is cited before the rule it changes), else its first line."""
    return next((c for c in verdict.citations if c.role in DECISIVE_ROLES), next(iter(verdict.citations), None))


def short_place(ruleset: Ruleset, lines: tuple[int, ...], language: str) -> str:
    """Where lines stand, short enough for one line on a phone: the first place's headings
    below the outermost one (when nested) and its item, each by its title in the language
    alone (``where_cited``, in the details, sets the Japanese beside it); the document's short
    name for lines under no heading."""
    found = places(ruleset, lines)
    if not found:
        return ruleset.document.short_name.get(language)
    place = found[0]
    sections = place.sections[1:] if len(place.sections) > 1 else place.sections
    said = [_title(ruleset, title, language) for title in sections]
    if place.item is not None:
        said.append(t("why.item", language, item=_title(ruleset, place.item, language)))
    return " › ".join(said) or ruleset.document.short_name.get(language)


def _title(ruleset: Ruleset, title: str, language: str) -> str:
    """A heading's title in the language: the ruleset's English title, else the Japanese (cut)."""
    english = ruleset.document.outline.titles.get(title) if language != "ja" else None
    return english or short_title(title)


def finding_question(spec: FactSpec, language: str) -> str:
    """The question a finding's control asks (the fact's name when it has none)."""
    asked = spec.finding.question if spec.finding is not None else spec.name
    return asked.get(language)


def finding_value(spec: FactSpec, value: object, language: str) -> str:
    """A finding's value in words: yes or no, or a number with its unit ("—" for none)."""
    if spec.type == "bool":
        return t("findings.yes", language) if value is True else t("findings.no", language) if value is False else "—"
    if value is None:
        return "—"
    unit = spec.unit.get(language) if spec.unit is not None else ""
    return f"{value} {unit}".strip()


def _wrong_finding(ruleset: Ruleset, wrong: list[FindingRecord], language: str) -> dict[str, str]:
    """The first wrong finding as words: its question, the value the evidence shows, and how
    many more were wrong (said only when some were)."""
    spec = next(s for s in ruleset.facts if s.id == wrong[0].fact)
    more = t("why.more_findings", language, n=len(wrong) - 1) if len(wrong) > 1 else ""
    return {"question": finding_question(spec, language),
            "standard": finding_value(spec, wrong[0].standard, language), "more": more}


def _fixes(ruleset: Ruleset, ids: tuple[str, ...], language: str) -> str:
    return ", ".join(ruleset.name_of("fix", i, language) for i in ids)


def scenario_why(ruleset: Ruleset, verdict: Verdict, grade: ScenarioGrade, record: AttemptRecord,
                 answered: bool, language: str) -> str:
    """Why a scenario card's answer is graded so, in a sentence: the first thing wrong (a
    wrong penalty as a wrong finding or a misapplied document; the infraction; a finding; the
    penalty; who receives it; the fixes), with the standard answer and the section of the
    document that decides it."""
    deciding = deciding_citation(verdict)
    words = {
        "infraction": ruleset.name_of("infraction", verdict.infraction, language),
        "penalty": ruleset.name_of("penalty", verdict.penalty, language),
        "place": short_place(ruleset, deciding.lines, language) if deciding is not None
        else ruleset.document.short_name.get(language),
    }
    both = t("why.both_players", language) if verdict.players == "both" else ""
    if not answered:
        return t("why.standard", language, **words) + both
    wrong = [finding for finding in grade.findings if not finding.right]
    if grade.penalty is PartResult.WRONG and grade.findings:
        if grade.penalty_follows_findings:
            return t("why.finding_wrong", language, **_wrong_finding(ruleset, wrong, language))
        if not wrong:
            return t("why.misapplied", language, **words)
        return t("why.both_wrong", language, **words, **_wrong_finding(ruleset, wrong, language))
    if grade.infraction is PartResult.WRONG:
        chosen = ruleset.name_of("infraction", record.chosen_infraction, language) if record.chosen_infraction else "—"
        return t("why.infraction", language, **words, chosen=chosen)
    if wrong:
        return t("why.penalty_right_finding_wrong", language, **_wrong_finding(ruleset, wrong, language))
    if grade.penalty is PartResult.WRONG:
        chosen = ruleset.name_of("penalty", record.chosen_penalty, language) if record.chosen_penalty else "—"
        return t("why.penalty", language, **words, chosen=chosen)
    if grade.players is PartResult.WRONG:
        return t("why.players", language, **words, players=t(f"players.{verdict.players}", language))
    if grade.fixes is PartResult.WRONG:
        if grade.missing_fixes:
            return t("why.missing_fixes", language, **words,
                     fixes=_fixes(ruleset, grade.missing_fixes, language))
        required = _fixes(ruleset, verdict.fixes, language) or t("answer.no_fix", language)
        return t("why.extra_fixes", language, **words, required=required,
                 fixes=_fixes(ruleset, grade.extra_fixes, language))
    if grade.penalty is PartResult.ACCEPTED:
        chosen = ruleset.name_of("penalty", record.chosen_penalty or "", language)
        return t("why.accepted", language, **words, chosen=chosen)
    return t("why.right", language, **words) + both


def knowledge_why(card: KnowledgeCard, ruleset: Ruleset, language: str) -> str:
    """Why a knowledge card's answer is the answer: where the document says it, and the first
    sentence of the card's explanation."""
    place = short_place(ruleset, source_citation(card, ruleset).lines, language)
    return t("why.knowledge", language, place=place, reason=first_sentence(card.explanation.get(language)))


def judgement_why(card: JudgementCallCard, language: str) -> str:
    """Why a judgement call is graded so: the first sentence of its explanation (which line is
    nearest, or that none is), and that the rest is the head judge's."""
    return t("why.judgement", language, reason=first_sentence(card.explanation.get(language)))

