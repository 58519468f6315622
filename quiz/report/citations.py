"""Which lines of the document a feedback quotes, planned before anything is drawn.

A feedback quotes the verdict's lines, the card's source line and, for a judgement call,
the nearest infraction's lines and the principle. These overlap, and a trainee should not
read a passage twice: ``Quotes`` leaves out a passage already quoted and lets a longer one
stand in for the shorter ones it holds. Pure, so it is tested without a page.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from quiz.model.cards import AnyCard, JudgementCallCard, RuledCard
from quiz.model.errors import QuizError, UndecidedCaseError
from quiz.model.rulesets import Principle, Ruleset
from quiz.model.verdict import CitedLine, Verdict
from quiz.model.words import t
from quiz.rules.engine import compile_ruleset, judge, line_numbers
from quiz.rules.outline import Place, places

DECISIVE_ROLES = ("rule", "escalation", "upgrade")  # the lines that decide a verdict, quoted first
TITLE_CHARS = 30  # an item is titled by its whole first line: a long Japanese title is cut here ("…")


def _parts(cited: CitedLine) -> list[str]:
    return [part.strip() for part in cited.ja.split("\n") if part.strip()]


@dataclass
class Quotes:
    """The passages one feedback quotes, compared by text, line by line. Add passages with
    ``add(section, cited)`` in the order they are shown: a passage whose every line is quoted
    already is left out, and one holding every line of earlier ones is quoted in the first
    one's place instead. ``section(name)`` gives what a section quotes, its parts included (a
    section may be quoted in parts, each named ``name/part``)."""

    slots: list[tuple[str, CitedLine | None]] = field(default_factory=list)

    def covers(self, cited: CitedLine) -> bool:
        """Whether every line of ``cited`` is quoted already."""
        quoted = [part for _, c in self.slots if c is not None for part in _parts(c)]
        return all(any(part in other for other in quoted) for part in _parts(cited))

    def add(self, section: str, cited: CitedLine) -> None:
        if self.covers(cited):
            self.slots.append((section, None))
            return
        inside = [i for i, (_, c) in enumerate(self.slots)
                  if c is not None and all(any(part in mine for mine in _parts(cited)) for part in _parts(c))]
        if inside:  # earlier, shorter passages: the longer one takes the first one's place
            first, *rest = inside
            self.slots[first] = (self.slots[first][0], cited)
            for index in rest:
                self.slots[index] = (self.slots[index][0], None)
            self.slots.append((section, None))
            return
        self.slots.append((section, cited))

    def section(self, name: str) -> list[CitedLine]:
        return [c for s, c in self.slots if (s == name or s.startswith(name + "/")) and c is not None]


def source_citation(card: AnyCard, ruleset: Ruleset) -> CitedLine:
    """The line of the document the card was drawn from."""
    return CitedLine(ruleset.document.title.ja, "source", card.source.ja, card.source.en,
                     line_numbers(card.source.ja, ruleset.source_lines))


def scenario_quotes(card: RuledCard, ruleset: Ruleset, verdict: Verdict) -> Quotes:
    """A scenario's feedback: ``decisive`` (the lines that decide the verdict), ``more`` (the
    verdict's other lines) and ``source``."""
    quotes = Quotes()
    for cited in verdict.citations:
        quotes.add("decisive" if cited.role in DECISIVE_ROLES else "more", cited)
    quotes.add("source", source_citation(card, ruleset))
    return quotes


def judgement_quotes(card: JudgementCallCard, ruleset: Ruleset) -> Quotes:
    """A judgement call's feedback: ``nearest`` (the lines of every nearest infraction, each
    in its part ``nearest/<infraction id>``: ``nearest_part``),
    ``principle`` (the one that leaves the case to the head judge) and ``source``."""
    quotes = Quotes()
    book = compile_ruleset(ruleset)
    for line in card.nearest_lines:
        for rule in book.infractions[line][1] if line in book.infractions else ():
            quotes.add(nearest_part(line), rule.cited)
    principle = principle_of(card, ruleset)
    if principle is not None:
        quotes.add("principle", CitedLine(ruleset.document.title.ja, "principle", principle.citation.ja,
                                          principle.citation.en,
                                          line_numbers(principle.citation.ja, ruleset.source_lines)))
    quotes.add("source", source_citation(card, ruleset))
    return quotes


def nearest_part(infraction: str) -> str:
    """The part of a judgement call's ``nearest`` quotes that holds one nearest infraction's lines."""
    return f"nearest/{infraction}"


def principle_of(card: JudgementCallCard, ruleset: Ruleset) -> Principle | None:
    """The principle that leaves the card's case to the head judge."""
    return next((p for p in ruleset.principles if p.id == card.principle), None)


def refusal(card: JudgementCallCard, ruleset: Ruleset) -> UndecidedCaseError | None:
    """Why the document leaves the card's case open: the engine's refusal of its facts under
    its first nearest infraction, the one they are stated against (None without facts, or when
    the engine decides them)."""
    if card.first_line is None or not card.facts:
        return None
    try:
        judge(ruleset, card.first_line, card.facts)
    except UndecidedCaseError as refused:
        return refused
    except QuizError:
        return None
    return None


def line_span(lines: tuple[int, ...]) -> str:
    """Line numbers as runs: ``9–11, 48`` (``?`` for none)."""
    if not lines:
        return "?"
    runs: list[list[int]] = []
    for number in sorted(set(lines)):
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs)


def where_cited(ruleset: Ruleset, lines: tuple[int, ...], language: str) -> str:
    """Where cited lines stand, as a judge finds them in the official document: the document,
    then each section and item as the document's own headings title them (in English, the
    ruleset's English title with the Japanese one beside it, which the official document
    has); the line numbers (of the app's copy, which the official document does not have)
    only as a detail."""
    said = [words for place in places(ruleset, lines) if (words := _place_words(place, ruleset, language))]
    document = ruleset.document.title
    return t("citation.where" if said else "citation.where_lines", language,
             document=_titled("citation.title", document.ja, document.en, language),
             places="; ".join(said), lines=line_span(lines), n=len(set(lines)))


def _place_words(place: Place, ruleset: Ruleset, language: str) -> str:
    titles = ruleset.document.outline.titles
    sections = [_titled("citation.title", title, titles.get(title), language) for title in place.sections]
    item = [_titled("citation.item", place.item, titles.get(place.item), language)] if place.item else []
    return " › ".join([*sections, *item])


def _titled(key: str, japanese: str, english: str | None, language: str) -> str:
    """A heading as ``key`` words it: the Japanese title (cut), and in English the English
    title before it; the Japanese alone when the English is the same ("A") or missing (the
    content checks report a heading without one)."""
    return t(key, "ja" if english in (None, japanese) else language, ja=short_title(japanese), title=english)


def short_title(japanese: str) -> str:
    """A Japanese heading as shown: an item is titled by its whole first line, cut here."""
    return japanese if len(japanese) <= TITLE_CHARS else japanese[:TITLE_CHARS - 1] + "…"
