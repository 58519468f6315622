"""``quiz coverage``'s report of the finding cards per infraction (CONTENT.md revision 4)."""

from __future__ import annotations

import pytest

from quiz.content.finding_coverage import finding_coverage, finding_coverage_lines, fixed_findings
from quiz.content.loader import Content, load_content


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content()


def test_every_infraction_has_a_row_and_the_counts_add_up(content):
    rows = finding_coverage(content)
    assert len(rows) == sum(len(rs.infractions) for rs in content.rulesets.values())
    finding_cards = [*content.scenario_cards, *content.floor_calls]  # a floor call is a finding card too
    assert sum(row.cards for row in rows) == sum(1 for c in finding_cards if c.findings and not c.retired)
    lines = finding_coverage_lines(rows)
    assert lines[-1].startswith(f"{len(rows)} infractions")


def test_a_finding_the_same_on_every_card_is_reported_unless_its_other_value_is_another_infraction(content):
    ygo = content.rulesets["yugioh-ocg"]
    misplays = [c for c in content.scenario_cards if c.infraction == "rules_misplay" and c.findings]
    # every rules_misplay card asking intent finds it false: 故意 turns the case into intentional_violation
    only_false = [c for c in misplays if "intentional" in c.findings]
    assert ("intentional", False) not in fixed_findings(ygo, "rules_misplay", only_false)
    # decisive never true on these cards would be reported
    extra = [c for c in content.scenario_cards if c.infraction == "extra_draw" and "decisive" in c.findings
             and not c.parameters][:1]
    assert extra and "decisive" in [fact for fact, _ in fixed_findings(ygo, "extra_draw", extra)]


def test_a_judgement_call_holding_the_other_value_counts(content):
    pkm = content.rulesets["pokemon-card-ja"]
    cards = [c for c in content.scenario_cards if c.infraction == "card_revealed" and "intentional" in c.findings]
    assert ("intentional", False) in fixed_findings(pkm, "card_revealed", cards)
    assert ("intentional", False) not in fixed_findings(pkm, "card_revealed", cards, [{"intentional": True}])


def test_at_most_a_tenth_of_finding_cards_rest_on_an_admission_alone(content):
    """Revision 4's target: a finding that only the offender's own admission shows is made
    arguable or given other evidence; the cards still decided by one (tag ``admission-only``)
    stay at most 10% of the finding cards."""
    rows = finding_coverage(content)
    cards = sum(row.cards for row in rows)
    assert cards > 0 and sum(row.admission_only for row in rows) <= 0.1 * cards
