"""Cross-reference checks of a ruleset: every id it names exists, every condition parses."""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

from quiz.model.errors import unknown_id
from quiz.model.rulesets import Citation, Infraction, Rule, Ruleset, split_rules
from quiz.model.words import Wording
from quiz.rules.conditions import ConditionError, parse_condition
from quiz.rules.outline import headings

Loc = tuple[str | int, ...]
Finding = tuple[Loc, Wording]  # where in the file (keys and indexes), and what is wrong there


def check_ruleset(ruleset: Ruleset, source_lines: list[str] | None = None) -> list[Finding]:
    """Every problem of a structurally valid ruleset, as (location, wording) pairs."""
    checker = _Checker(ruleset)
    checker.duplicate_ids()
    checker.ladder()
    for index, infraction in enumerate(ruleset.infractions):
        checker.infraction(index, infraction)
    checker.escalations()
    checker.upgrades()
    checker.facts_read()
    found = checker.found
    if source_lines is not None:
        end = ruleset.document.rules_end
        rules, after = split_rules(source_lines, end)
        ended = end is None or any(line.strip() == end.strip() for line in rules)
        if not ended:
            found.append((("document", "rules_end"), Wording("problem.ruleset.rules_end_not_found",
                                                             line=repr(end))))
        found += [
            (loc, wording)
            for loc, citation in _citations(ruleset)
            for wording in citation_problems(citation, rules, after)
        ]
        if ended:  # the headings of the rules, not of an afterword a lost end would take in
            found += heading_title_problems(ruleset, rules)
    return found


def heading_title_problems(ruleset: Ruleset, rules: list[str]) -> list[Finding]:
    """Every heading and item the outline finds in the rules has an English title, and every
    title is of such a heading: a new heading never shows Japanese alone in English, and a
    mistyped key is not a title nobody reads."""
    titles = ruleset.document.outline.titles
    found = headings(rules, ruleset.document.outline)
    loc: Loc = ("document", "outline", "titles")
    return [
        *((loc, Wording("problem.ruleset.heading_untitled", heading=repr(heading), line=line))
          for heading, line in found.items() if heading not in titles),
        *((loc + (heading,), Wording("problem.ruleset.title_unknown_heading", heading=repr(heading)))
          for heading in titles if heading not in found),
    ]


class _Checker:
    """The checks of one ruleset, section by section, gathering every finding."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.found: list[Finding] = []
        self.facts = {spec.id: spec for spec in ruleset.facts}
        self.penalties = [p.id for p in ruleset.ladder]
        self.fixes = [f.id for f in ruleset.fixes]
        self.categories = [c.id for c in ruleset.categories]
        self.infractions = {i.id: i for i in ruleset.infractions}

    def known(self, loc: Loc, value: str, pool: Iterable[str], what: str) -> None:
        """A finding unless ``value`` is one of ``pool``; ``what`` names the kind of id
        (its wording is ``problem.what.<what>``)."""
        pool = list(pool)
        if value not in pool:
            self.found.append((loc, unknown_id(what, value, pool)))

    def condition(self, loc: Loc, raw: object) -> None:
        try:
            parse_condition(raw, self.facts)
        except ConditionError as error:
            self.found.append((loc + error.path, error.wording))

    def duplicate_ids(self) -> None:
        for name in ("facts", "ladder", "categories", "fixes", "infractions", "upgrades", "escalations", "principles"):
            self.found += _duplicates((name,), [item.id for item in getattr(self.ruleset, name)])

    def ladder(self) -> None:
        for p_index, penalty in enumerate(self.ruleset.ladder):
            for f_index, fix in enumerate(penalty.optional_fixes):
                self.known(("ladder", p_index, "optional_fixes", f_index), fix, self.fixes, "fix")
            for s_index, scope in enumerate(penalty.scopes):
                self.condition(("ladder", p_index, "scopes", s_index, "when"), scope.when)

    def infraction(self, index: int, infraction: Infraction) -> None:
        base: Loc = ("infractions", index)
        self.known(base + ("category",), infraction.category, self.categories, "category")
        for r_index, fact in enumerate(infraction.requires):
            self.known(base + ("requires", r_index), fact, self.facts, "fact")
        for fact, value in infraction.assumes.items():
            spec = self.facts.get(fact)
            if spec is None:
                self.known(base + ("assumes", fact), fact, self.facts, "fact")
            elif (spec.type == "bool") != isinstance(value, bool):
                self.found.append((base + ("assumes", fact), Wording(
                    "problem.ruleset.assumed_type", fact=fact, type=spec.type, value=repr(value))))
        self.found += _duplicates(base + ("rules",), [r.id for r in infraction.rules])
        for r_index, rule in enumerate(infraction.rules):
            self.rule(base + ("rules", r_index), rule)
        if all(rule.undecided for rule in infraction.rules):
            self.found.append((base + ("rules",), Wording("problem.ruleset.all_undecided")))
        if infraction.rules[-1].when is not None:
            self.found.append(
                (base + ("rules", len(infraction.rules) - 1, "when"), Wording("problem.ruleset.last_rule_condition"))
            )
        self.found += _cycle(base, infraction.id, self.infractions)

    def rule(self, loc: Loc, rule: Rule) -> None:
        if rule.when is not None:
            self.condition(loc + ("when",), rule.when)
        if rule.penalty is not None:
            self.known(loc + ("penalty",), rule.penalty, self.penalties, "penalty")
        if rule.becomes is not None:
            self.known(loc + ("becomes",), rule.becomes, self.infractions, "infraction")
        for f_index, fix in enumerate(rule.fixes):
            self.known(loc + ("fixes", f_index), fix, self.fixes, "fix")
        for f_index, fix in enumerate(rule.optional_fixes):
            self.known(loc + ("optional_fixes", f_index), fix, self.fixes, "fix")
        for p_index, other in enumerate(rule.also_accepted):
            self.known(loc + ("also_accepted", p_index), other, self.penalties, "penalty")

    def escalations(self) -> None:
        for e_index, escalation in enumerate(self.ruleset.escalations):
            loc = ("escalations", e_index)
            for f_index, source in enumerate(escalation.from_penalties):
                self.known(loc + ("from", f_index), source, self.penalties, "penalty")
            self.known(loc + ("to",), escalation.to, self.penalties, "penalty")
            self.condition(loc + ("when",), escalation.when)

    def upgrades(self) -> None:
        branches = [f"{i.id}/{r.id}" for i in self.ruleset.infractions for r in i.rules if r.penalty is not None]
        for u_index, upgrade in enumerate(self.ruleset.upgrades):
            loc = ("upgrades", u_index)
            self.condition(loc + ("when",), upgrade.when)
            self.known(loc + ("up_to",), upgrade.up_to, self.penalties, "penalty")
            for n, branch in enumerate(upgrade.rules or []):
                self.known(loc + ("rules", n), branch, branches, "rule_with_penalty")

    def facts_read(self) -> None:
        read = _read_facts(self.ruleset)
        for f_index, spec in enumerate(self.ruleset.facts):
            if spec.id not in read:
                unread = Wording("problem.ruleset.unread_fact", fact=repr(spec.id))
                self.found.append((("facts", f_index, "id"), unread))


def _read_facts(ruleset: Ruleset) -> set[str]:
    """Names of the facts any condition of the ruleset reads, or any infraction requires."""
    facts = {spec.id: spec for spec in ruleset.facts}
    raws = [r.when for i in ruleset.infractions for r in i.rules if r.when is not None]
    raws += [e.when for e in ruleset.escalations] + [u.when for u in ruleset.upgrades]
    raws += [s.when for p in ruleset.ladder for s in p.scopes]
    read = {name for i in ruleset.infractions for name in (*i.requires, *i.assumes)}
    for raw in raws:
        try:
            read |= parse_condition(raw, facts).facts()
        except ConditionError:
            pass  # reported where the condition stands
    return read


def citation_problems(citation: Citation, source: list[str] | Callable[[str], bool],
                      after_rules: Sequence[str] = ()) -> list[Wording]:
    """A wording for each quoted Japanese line that does not occur in the document's rules.

    ``source`` is the rules' lines, or a test of whether a quoted line occurs in them;
    ``after_rules`` the lines after the rules end (an afterword): a line found only there is
    refused as such, never quoted as a rule.
    """
    if callable(source):
        occurs = source
    else:
        lines = source
        occurs = lambda part: any(part in line for line in lines)  # noqa: E731
    return [
        Wording("problem.citation.after_rules", quote=repr(part))
        if any(part in line for line in after_rules) else Wording("problem.citation.not_found", quote=repr(part))
        for part in citation.ja.split("\n")
        if part.strip() and not occurs(part)
    ]


def _citations(ruleset: Ruleset) -> list[tuple[Loc, Citation]]:
    found: list[tuple[Loc, Citation]] = []
    for section in ("ladder", "fixes", "upgrades", "escalations", "principles"):
        for index, item in enumerate(getattr(ruleset, section)):
            found.append(((section, index, "citation", "ja"), item.citation))
    for p_index, penalty in enumerate(ruleset.ladder):
        for s_index, scope in enumerate(penalty.scopes):
            found.append((("ladder", p_index, "scopes", s_index, "citation", "ja"), scope.citation))
    for i_index, infraction in enumerate(ruleset.infractions):
        for r_index, rule in enumerate(infraction.rules):
            found.append((("infractions", i_index, "rules", r_index, "citation", "ja"), rule.citation))
    return found


def _duplicates(loc: Loc, ids: list[str]) -> list[Finding]:
    seen: set[str] = set()
    found: list[Finding] = []
    for index, item in enumerate(ids):
        if item in seen:
            found.append((loc + (index, "id"), Wording("problem.ruleset.duplicate_id", id=repr(item))))
        seen.add(item)
    return found


def _cycle(loc: Loc, start: str, infractions: dict) -> list[Finding]:
    """``becomes`` links must not loop back."""
    seen = {start}
    frontier = [start]
    while frontier:
        current = frontier.pop()
        infraction = infractions.get(current)
        if infraction is None:
            continue
        for rule in infraction.rules:
            target = rule.becomes
            if target == start:
                return [(loc + ("rules",), Wording("problem.ruleset.becomes_loop", infraction=repr(start)))]
            if target is not None and target not in seen:
                seen.add(target)
                frontier.append(target)
    return []
