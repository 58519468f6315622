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
from quiz.model.cards import ScenarioCard
from quiz.model.errors import FactError, QuizError
from quiz.model.facts import FactSpec, coerce_value
from quiz.model.parameters import FromParameter, Parameter, TextOption
from quiz.model.rulesets import Ruleset
from quiz.model.text import LANGUAGES
from quiz.model.verdict import Verdict
from quiz.rules.engine import judge
from quiz.rules.placeholders import PlaceholderError, placeholder_names
from quiz.rules.variants import Value, card_facts, combination_count, describe_values, fact_combinations

MAX_COMBINATIONS = 5000
Judged = list[tuple[dict[str, Value], Verdict]]


def variant_problems(card: ScenarioCard, ruleset: Ruleset) -> list[Finding]:
    """Problems of the card's placeholders and parameters (none for a plain, brace-free card)."""
    return placeholder_problems(card) + parameter_fact_problems(card, ruleset)


def placeholder_problems(card: ScenarioCard) -> list[Finding]:
    """Malformed or unknown placeholders, parameters the situation does not state, braces in choices."""
    found: list[Finding] = []
    stated: dict[str, set[str]] = {}  # language -> placeholders of the situation (when it parses)
    for field in ("title", "situation"):
        for lang in LANGUAGES:
            try:
                names = placeholder_names(getattr(card, field).get(lang))
            except PlaceholderError as error:
                found.append(((field, lang), str(error)))
                continue
            known = ", ".join(card.parameters) or "none (the card declares no parameters)"
            found += [((field, lang), f"unknown placeholder {{{name}}}; parameters: {known}")
                      for name in names if name not in card.parameters]
            if field == "situation":
                stated[lang] = set(names)
    for name in card.parameters:
        missing = [lang for lang, names in stated.items() if name not in names]
        if missing:
            found.append((("parameters", name), f"parameter {name} is not used in the situation "
                          f"({', '.join(missing)}): the story must state every drawn value with {{{name}}}"))
    return found + _braces_in_choices(card)


def _braces_in_choices(card: ScenarioCard) -> list[Finding]:
    return [
        (("parameters", name, "choice", index, lang),
         "the texts of a choice are shown as written: no placeholders or braces in them")
        for name, parameter in card.parameters.items()
        for index, option in enumerate(parameter.choice or ())
        if isinstance(option, TextOption)
        for lang in LANGUAGES
        if "{" in option.get(lang) or "}" in option.get(lang)
    ]


def parameter_fact_problems(card: ScenarioCard, ruleset: Ruleset) -> list[Finding]:
    """Facts taken from parameters that are unknown, of the wrong kind, or out of range."""
    specs = {spec.id: spec for spec in ruleset.facts}
    found: list[Finding] = []
    for fact, entry in card.facts.items():
        if not isinstance(entry, FromParameter):
            continue
        loc: Loc = ("facts", fact, "param")
        parameter = card.parameters.get(entry.param)
        if parameter is None:
            known = ", ".join(card.parameters) or "none"
            found.append((loc, f"unknown parameter {entry.param!r}; parameters: {known}"))
        elif not parameter.is_number:
            found.append((loc, f"parameter {entry.param} is a choice of texts: a fact takes a number "
                               "parameter (or give each text option its own facts)"))
        elif fact in specs:  # an unknown fact is reported by the engine check
            found += _range_problems(specs[fact], entry.param, parameter)
    found += _option_fact_problems(card, specs)
    return found


def _range_problems(spec: FactSpec, name: str, parameter: Parameter) -> list[Finding]:
    if spec.type != "int":
        return [(("facts", spec.id, "param"), f"fact {spec.id} is true or false, but parameter {name} gives numbers")]
    for index, value in enumerate(parameter.values()):
        try:
            coerce_value(spec, value)
        except FactError as error:
            where: Loc = ("between",) if parameter.between is not None else ("choice", index)
            return [(("parameters", name) + where, f"parameter {name} can be {value}, but {error}")]
    return []


def _option_fact_problems(card: ScenarioCard, specs: dict[str, FactSpec]) -> list[Finding]:
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
                    found.append((loc, f"unknown fact {fact!r}; known facts: {', '.join(sorted(specs))}"))
                    continue
                try:
                    coerce_value(spec, value)
                except FactError as error:
                    found.append((loc, str(error)))
                if fact in card.facts:
                    found.append((loc, f"fact {fact} is set both in the card's facts and by parameter {name}"))
                elif setters.setdefault(fact, name) != name:
                    found.append((loc, f"fact {fact} is set by two parameters, {setters[fact]} and {name}"))
    return found


def judge_every_showing(card: ScenarioCard, ruleset: Ruleset) -> tuple[list[Finding], Judged]:
    """The engine's verdict for every value combination, or the first problem it meets."""
    count = combination_count(card)
    if count > MAX_COMBINATIONS:
        return [(("parameters",), f"the parameters that reach facts give {count} combinations; "
                                  f"at most {MAX_COMBINATIONS}")], []
    judged: Judged = []
    for values in fact_combinations(card):
        prefix = f"with {describe_values(values)}: " if values else ""
        try:
            judged.append((values, judge(ruleset, card.infraction, card_facts(card, values))))
        except FactError as error:
            loc: Loc = ("facts", error.fact) if error.fact in card.facts else ("facts",)
            return [(loc, prefix + str(error))], []
        except QuizError as error:
            return [(("facts",), prefix + str(error))], []
    return [], judged


def answer_text(verdict: Verdict) -> str:
    """The parts of a verdict ``expect`` states, in short: ``tardiness: warning, fixes []``."""
    both = " (both players)" if verdict.players == "both" else ""
    return f"{verdict.infraction}: {verdict.penalty}{both}, fixes [{', '.join(sorted(verdict.fixes))}]"


def changing_answer(judged: Judged) -> str | None:
    """Why ``expect`` cannot stand when the answer changes with the values, else None."""
    first: dict[str, dict[str, Value]] = {}
    for values, verdict in judged:
        first.setdefault(answer_text(verdict), values)
    if len(first) < 2:
        return None
    (a, a_values), (b, b_values) = list(first.items())[:2]
    return (
        f"the answer depends on the drawn values ({describe_values(a_values)} gives {a}; "
        f"{describe_values(b_values)} gives {b}): a card whose answer changes with its values has no expect"
    )
