"""Filling a card's answer form on a page the way a trainee does, for every kind of card."""

from __future__ import annotations

from quiz.content.loader import Content
from quiz.model.cards import (
    AnyCard,
    FloorCallCard,
    JudgementCallCard,
    KnowledgeCard,
    ScenarioCard,
)
from quiz.rules.variants import CardShowing, show_card
from quiz.training.answer_outcomes import asks_players, case_facts, verdict_for
from quiz.training.grading import ScenarioAnswer, judgement_call_answer

DETAILS_ICON = ":material/menu_book:"  # the feedback's details fold (quiz.ui.feedback_views.lead)

LABELS = {
    "infraction": ("Infraction", "違反"),
    "penalty": ("Penalty", "罰則"),
    "players": ("Who receives it?", "誰に科しますか？"),
    "fixes": ("Fix", "処置"),
    "choice": ("Your answer", "回答"),
    "nearest": ("Which infraction of the document is nearest to this case?", "この事例に最も近い、文書の違反はどれですか？"),
    "check": ("Check", "答え合わせ"),
}


def right_answer(content: Content, card: AnyCard, showing: CardShowing | None = None) -> ScenarioAnswer | str:
    """The answer graded right: the verdict on the showing, the key, or the nearest line."""
    if isinstance(card, KnowledgeCard):
        return card.answer
    if isinstance(card, JudgementCallCard):
        return judgement_call_answer(card)
    verdict = verdict_for(content, card, showing)
    players = verdict.players if asks_players(content, card) else None
    facts = case_facts(content.rulesets[card.ruleset], card.infraction,
                       (showing or show_card(card)).facts)
    findings = tuple((fact, facts[fact]) for fact in card.findings)
    return ScenarioAnswer(verdict.infraction, verdict.penalty, verdict.fixes, players, findings)


def deal_until(at, content: Content, kind: type) -> AnyCard:
    """Deal practice cards until one of ``kind`` shows; that card. A deal goes through the whole
    pool without repeats (``quiz.training.selection.deal``), so as many deals as there are cards
    find one whenever the pool holds one; a fixed 80 missed the knowledge cards (32 of 378)
    in about 3 runs of 10,000 (it did once in CI)."""
    for _ in range(len(content.cards) + 1):
        card = content.cards[at.session_state["practice"].card]
        if isinstance(card, kind):
            return card
        at.session_state["practice"].card = None
        at.run()
    raise AssertionError(f"no {kind.__name__} dealt")


def practice_showing(at, card: AnyCard) -> CardShowing | None:
    """The showing of the practice card on the page (drawn from the kept seed); None for a
    card without parameters to draw (a knowledge card or a judgement call)."""
    if not isinstance(card, ScenarioCard):
        return None
    return show_card(card, at.session_state["practice"].seed)


def widget(widgets, part: str):
    return next(w for w in widgets if w.label in LABELS[part])


def finding_widget(at, fact: str):
    """The control of one finding on the page: a yes/no button group or a number input."""
    for kind in ("button_group", "number_input"):
        found = [w for w in at.get(kind) if str(w.key).endswith(f"-finding-{fact}")]
        if found:
            return found[0]
    raise AssertionError(f"no control for the finding {fact!r}")


def players_question(at):
    """The "Who receives it?" radio of the form on the page, or None when not asked."""
    return next((w for w in at.radio if w.label in LABELS["players"]), None)


def fill(at, card: AnyCard, given: ScenarioAnswer | str, button: str | None = None) -> None:
    """Put ``given`` into the card's form and press the submit button (Check, or ``button``);
    a floor call's form is opened by its Rule button first (the investigation as it stands)."""
    if isinstance(card, FloorCallCard) and not any(str(b.key).endswith("-back") for b in at.button):
        rule(at)
    if isinstance(card, (ScenarioCard, FloorCallCard)):
        assert isinstance(given, ScenarioAnswer)
        for fact, value in given.findings:
            finding_widget(at, fact).set_value(value)
        widget(at.selectbox, "infraction").set_value(given.infraction)
        widget(at.radio, "penalty").set_value(given.penalty)
        if given.players is not None:
            widget(at.radio, "players").set_value(given.players)
        widget(at.multiselect, "fixes").set_value(list(given.fixes))
    elif isinstance(card, JudgementCallCard):
        widget(at.selectbox, "nearest").set_value(given)
    else:
        widget(at.radio, "choice").set_value(given)
    labels = (button,) if button else LABELS["check"]
    next(b for b in at.button if b.label in labels).click().run()


def sidebar_due(at) -> str:
    """The sidebar's count of cards due for review, as shown."""
    return next(c.value for c in at.sidebar.caption if "Due for review" in c.value or "復習待ち" in c.value)


def open_details(at) -> None:
    """Open every closed fold of feedback details on the page (``quiz.ui.feedback_views.lead``:
    drawn once opened) and run the page again, as tapping them does."""
    closed = [e for e in at.expander if e.icon == DETAILS_ICON and not e.proto.expanded]
    assert closed, [e.label for e in at.expander]
    for details in closed:
        at.session_state[fold_key(details)] = True
    at.run()


def fold_key(expander) -> str:
    """The session-state key of a keyed expander (its widget id ends with it)."""
    prefix, _, key = expander.proto.id.partition("-details-")
    assert prefix.startswith("$$ID-") and key, expander.proto.id
    return f"details-{key}"


def step_button(at, step_id: str):
    """The button of a floor call's step on the page (``quiz.ui.investigation_view``)."""
    found = [b for b in at.button if str(b.key).endswith(f"-step-{step_id}")]
    assert found, f"no button for the step {step_id!r}: {[b.key for b in at.button]}"
    return found[0]


def take_steps(at, *step_ids: str) -> None:
    """Take a floor call's steps, in order, as a trainee clicks them."""
    for step_id in step_ids:
        step_button(at, step_id).click().run()
        assert not at.exception, at.exception


def rule(at) -> None:
    """Press a floor call's Rule button: its answer form opens."""
    next(b for b in at.button if str(b.key).endswith("-rule")).click().run()
    assert not at.exception, at.exception
