"""Checks of a scenario card's placeholders and parameters, and its verdict for every value.

Rules (docs/AUTHORING.md, "Card variants"):

- ``{name}`` in the title or situation names a parameter; every parameter appears in the
  situation in both languages, so the story states each drawn value.
- ``{param: name}`` takes a number parameter, and every one of its values must fit the
  fact's type and minimum; a text option's facts must be known facts of the right type,
  and no fact is set in two places.
- The engine must give a verdict for every combination of the values that reach facts.
- ``expect`` must hold for every showing: a card whose answer changes with its values
  states no ``expect``.
"""

from __future__ import annotations

from quiz.content.ruleset_checks import Finding, Loc
from quiz.model.cards import RulingCard
from quiz.model.errors import FactError, QuizError
from quiz.model.facts import FactSpec, coerce_value, unknown_fact
from quiz.model.parameters import FromParameter, Parameter, TextOption
from quiz.model.rulesets import Ruleset
from quiz.model.text import LANGUAGES, Text
from quiz.model.verdict import Verdict
from quiz.model.words import Wording
from quiz.rules.engine import judge
from quiz.rules.placeholders import PlaceholderError, placeholder_names
from quiz.rules.variants import Value, card_facts, combination_count, describe_values, fact_combinations

MAX_COMBINATIONS = 5000
Judged = list[tuple[dict[str, Value], Verdict]]


def variant_problems(card: RulingCard, ruleset: Ruleset) -> list[Finding]:
    """Problems of the card's placeholders and parameters (none for a plain, brace-free card)."""
    return placeholder_problems(card) + parameter_fact_problems(card, ruleset)


def placeholder_problems(card: RulingCard) -> list[Finding]:
    """Malformed or unknown placeholders, parameters the situation does not state, braces in choices."""
    found: list[Finding] = []
    stated: dict[str, set[str]] = {}  # language -> placeholders of the situation (when it parses)
    for field in ("title", "situation"):
        for lang in LANGUAGES:
            try:
                names = placeholder_names(getattr(card, field).get(lang))
            except PlaceholderError as error:
                found.append(((_written(card, field), lang), error.wording))
                continue
            known = ", ".join(card.parameters) or Wording("problem.variant.no_parameters")
            where = (_written(card, field), lang)
            found += [(where, Wording("problem.variant.unknown_placeholder", name=name, known=known))
                      for name in names if name not in card.parameters]
            if field == "situation":
                stated[lang] = set(names)
    for name in card.parameters:
        missing = [lang for lang, names in stated.items() if name not in names]
        if missing:
            found.append((("parameters", name), Wording("problem.variant.unused_parameter", name=name,
                                                        languages=", ".join(missing))))
    return found + _braces_in_choices(card)


def _written(card: RulingCard, field: str) -> str:
    """The YAML key a field is written under (a floor call's situation is its ``call``)."""
    return card.OPENING if field == "situation" else field


def _braces_in_choices(card: RulingCard) -> list[Finding]:
    return [
        (("parameters", name, "choice", index, lang), Wording("problem.variant.braces_in_choice"))
        for name, parameter in card.parameters.items()
        for index, option in enumerate(parameter.choice or ())
        if isinstance(option, TextOption)
        for lang in LANGUAGES
        if "{" in option.get(lang) or "}" in option.get(lang)
    ]


def parameter_fact_problems(card: RulingCard, ruleset: Ruleset) -> list[Finding]:
    """Facts taken from parameters that are unknown, of the wrong kind, or out of range."""
    specs = {spec.id: spec for spec in ruleset.facts}
    found: list[Finding] = []
    for fact, entry in card.facts.items():
        if not isinstance(entry, FromParameter):
            continue
        loc: Loc = ("facts", fact, "param")
        parameter = card.parameters.get(entry.param)
        if parameter is None:
            known = ", ".join(card.parameters) or Wording("problem.variant.none")
            found.append((loc, Wording("problem.variant.unknown_parameter", name=repr(entry.param), known=known)))
        elif not parameter.is_number:
            found.append((loc, Wording("problem.variant.text_parameter", name=entry.param)))
        elif fact in specs:  # an unknown fact is reported by the engine check
            found += _range_problems(specs[fact], entry.param, parameter)
    found += _option_fact_problems(card, specs)
    return found


def _range_problems(spec: FactSpec, name: str, parameter: Parameter) -> list[Finding]:
    if spec.type != "int":
        return [(("facts", spec.id, "param"), Wording("problem.variant.numbers_for_bool", fact=spec.id, name=name))]
    for index, value in enumerate(parameter.values()):
        try:
            coerce_value(spec, value)
        except FactError as error:
            where: Loc = ("between",) if parameter.between is not None else ("choice", index)
            return [(("parameters", name) + where, Wording("problem.variant.value_refused", name=name, value=value,
                                                             error=error.wording))]
    return []


def _option_fact_problems(card: RulingCard, specs: dict[str, FactSpec]) -> list[Finding]:
    found: list[Finding] = []
    setters: dict[str, str] = {}
    for name, parameter in card.parameters.items():
        for index, option in enumerate(parameter.choice or ()):
            if not isinstance(option, TextOption):
                continue
            for fact, value in option.facts.items():
                loc: Loc = ("parameters", name, "choice", index, "facts", fact)
                spec = specs.get(fact)
                if spec is None:
                    found.append((loc, unknown_fact(fact, specs)))
                    continue
                try:
                    coerce_value(spec, value)
                except FactError as error:
                    found.append((loc, error.wording))
                if fact in card.facts:
                    found.append((loc, Wording("problem.variant.fact_set_twice", fact=fact, name=name)))
                elif setters.setdefault(fact, name) != name:
                    found.append((loc, Wording("problem.variant.fact_two_parameters", fact=fact, first=setters[fact],
                                               second=name)))
    return found


def judge_every_showing(card: RulingCard, ruleset: Ruleset) -> tuple[list[Finding], Judged]:
    """The engine's verdict for every value combination, or the first problem it meets."""
    count = combination_count(card)
    if count > MAX_COMBINATIONS:
        return [(("parameters",), Wording("problem.variant.too_many_combinations", combinations=count,
                                          most=MAX_COMBINATIONS))], []
    judged: Judged = []
    for values in fact_combinations(card):
        try:
            judged.append((values, judge(ruleset, card.infraction, card_facts(card, values))))
        except QuizError as error:
            loc: Loc = ("facts",)
            if isinstance(error, FactError) and error.fact is not None and error.fact in card.facts:
                loc = ("facts", error.fact)
            if not values:
                return [(loc, error.wording)], []
            return [(loc, Wording("problem.variant.with_values", values=_described(values), error=error.wording))], []
    return [], judged


def answer_wording(verdict: Verdict) -> Wording:
    """The parts of a verdict ``expect`` states, in short: ``tardiness: warning, fixes []``."""
    key = "problem.variant.answer_both" if verdict.players == "both" else "problem.variant.answer"
    return Wording(key, infraction=verdict.infraction, penalty=verdict.penalty, fixes=", ".join(sorted(verdict.fixes)))


def changing_answer(judged: Judged) -> Wording | None:
    """Why ``expect`` cannot stand when the answer changes with the values, else None."""
    first: dict[Wording, dict[str, Value]] = {}
    for values, verdict in judged:
        first.setdefault(answer_wording(verdict), values)
    if len(first) < 2:
        return None
    (a, a_values), (b, b_values) = list(first.items())[:2]
    return Wording("problem.variant.answer_changes", first_values=_described(a_values), first=a,
                   second_values=_described(b_values), second=b)


def _described(values: dict[str, Value]) -> Text:
    """Drawn values for a wording, in both languages: ``minutes=7, player=Sato``."""
    return Text(ja=describe_values(values, "ja") or "-", en=describe_values(values, "en") or "-")
