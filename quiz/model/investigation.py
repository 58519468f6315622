"""A floor call's investigation as it is graded and stored: what the trainee asked and checked
before ruling, beside the ruling (CONTENT.md, "Floor calls: investigate, then rule")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Evidence = Literal["gathered", "missed"]
GATHERED: Evidence = "gathered"
MISSED: Evidence = "missed"


@dataclass(frozen=True, slots=True, kw_only=True)
class InvestigationRecord:
    """What the trainee did at the table.

    Attributes:
        steps: the step ids taken, in order.
        evidence: (fact, gathered or missed) for each finding, in the card's order: gathered
            when a step that shows it and is not leading was taken.
        leading: the leading questions asked, in order.
        seconds: the round time the steps took.
        budget_seconds: the time the call allows before the table is held up.
        separated: on a call whose players should be questioned apart, whether they were
            before the first question to either; None on other calls.
        overheard: questions to a player asked with the other player listening (before the
            players were separated, on a call that asks it).
    """

    steps: tuple[str, ...]
    evidence: tuple[tuple[str, Evidence], ...]
    leading: tuple[str, ...]
    seconds: int
    budget_seconds: int
    separated: bool | None
    overheard: tuple[str, ...] = ()

    @property
    def over_budget(self) -> bool:
        return self.seconds > self.budget_seconds

    def gathered(self, fact: str) -> bool:
        return dict(self.evidence).get(fact) == GATHERED

    def summary(self) -> dict[str, Any]:
        """The investigation as ``quiz grade`` prints it."""
        return {"evidence": dict(self.evidence), "leading": list(self.leading), "seconds": self.seconds,
                "budget_seconds": self.budget_seconds, "separated": self.separated}

    def stored(self) -> dict[str, Any]:
        """The JSON kept with the attempt."""
        return {**self.summary(), "evidence": [[fact, value] for fact, value in self.evidence],
                "steps": list(self.steps), "overheard": list(self.overheard)}

    @classmethod
    def from_stored(cls, value: dict[str, Any]) -> InvestigationRecord:
        evidence = value.get("evidence") or ()
        pairs = evidence.items() if isinstance(evidence, dict) else evidence
        return cls(
            steps=tuple(value.get("steps") or ()),
            evidence=tuple((str(fact), GATHERED if found == GATHERED else MISSED) for fact, found in pairs),
            leading=tuple(value.get("leading") or ()),
            seconds=int(value.get("seconds") or 0),
            budget_seconds=int(value.get("budget_seconds") or 0),
            separated=value.get("separated"),
            overheard=tuple(value.get("overheard") or ()),
        )
