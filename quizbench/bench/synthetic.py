"""Synthetic content and history at scale, built from the shipped cards."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path
from typing import Sequence

import yaml
from sqlalchemy import insert

from quiz.content.loader import Content
from quiz.db.store import Store
from quiz.db.tables import attempts, problem_reports, trainees
from quiz.model.cards import FloorCallCard, ScenarioCard
from quiz.rules.engine import judge
from quiz.rules.variants import seed_facts

CARDS_PER_FILE = 100
DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def floor_call_share(content: Content) -> float:
    """The shipped floor calls' share of the cards the engine rules on (scenario cards and
    floor calls): the synthetic content holds floor calls in the same proportion."""
    ruled = len(content.scenario_cards) + len(content.floor_calls)
    return len(content.floor_calls) / ruled if ruled else 0.0


def write_cards(content: Content, count: int, folder: Path, rng: random.Random) -> list[str]:
    """Write ``count`` valid cards, copies of shipped scenario cards and floor calls (in the
    shipped proportion, ``floor_call_share``) with new ids and titles.

    Cards go to ``folder/<ruleset>/bench-NNN.yaml``, a hundred to a file; returns the ids.
    """
    scenarios = [c for c in content.scenario_cards if not getattr(c, "parameters", None)]
    floor_calls = list(content.floor_calls)
    share = floor_call_share(content) if floor_calls else 0.0
    ids: list[str] = []
    files: dict[tuple[str, int], list[dict]] = {}
    for number in range(count):
        template: ScenarioCard | FloorCallCard = rng.choice(floor_calls if rng.random() < share else scenarios)
        data = template.model_dump(mode="json", exclude_none=True, by_alias=True)
        data["id"] = f"bench-{number:06d}"
        data["title"] = {lang: f"{text} #{number}" for lang, text in data["title"].items()}
        files.setdefault((template.ruleset, number // CARDS_PER_FILE), []).append(data)
        ids.append(data["id"])
    for (ruleset, index), cards in files.items():
        path = folder / ruleset / f"bench-{index:04d}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(yaml.dump({"cards": cards}, Dumper=DUMPER, allow_unicode=True, sort_keys=False), "utf-8")
    return ids


def write_history(
    store: Store, content: Content, card_ids: Sequence[str], total: int, trainee_count: int,
    heavy_attempts: int, rng: random.Random, days: int = 365,
) -> list[int]:
    """Insert ``total`` attempts by ``trainee_count`` trainees over ``days`` days (at scenario
    cards: the floor calls are left unanswered, so each is a fresh investigation).

    The first trainee has ``heavy_attempts`` of them (the progress page's worst case); the
    rest are spread over the others. Returns the trainee ids, the heavy one first.
    """
    now = dt.datetime.now(dt.UTC)
    with store.engine.begin() as conn:
        ids = [
            int(conn.execute(insert(trainees).values(name=f"bench-trainee-{n:04d}", created_at=now))
                .inserted_primary_key[0])
            for n in range(trainee_count)
        ]
    scenario_ids = [card_id for card_id in card_ids if isinstance(content.cards[card_id], ScenarioCard)]
    samples = [_sample(content, content.cards[card_id]) for card_id in scenario_ids[:500]]
    ladders = {rid: [p.id for p in r.ladder] for rid, r in content.rulesets.items()}
    rest = max(total - heavy_attempts, 0)
    owners = [ids[0]] * min(heavy_attempts, total) + [rng.choice(ids[1:] or ids) for _ in range(rest)]
    batch: list[dict] = []
    for owner in owners:
        sample = rng.choice(samples)
        right = rng.random() < 0.7
        ladder = ladders[sample["ruleset"]]
        chosen = sample["standard_penalty"] if right else rng.choice(ladder)
        steps = ladder.index(chosen) - ladder.index(sample["standard_penalty"])
        batch.append(dict(sample, trainee_id=owner, correct=steps == 0, chosen_penalty=chosen,
                          penalty_result="correct" if steps == 0 else "wrong", penalty_steps=steps,
                          seconds=rng.uniform(5, 90),
                          answered_at=now - dt.timedelta(seconds=rng.uniform(0, days * 86400))))
        if len(batch) >= 20_000:
            _insert(store, batch)
            batch = []
    if batch:
        _insert(store, batch)
    return ids


def _insert(store: Store, rows: list[dict]) -> None:
    with store.engine.begin() as conn:
        conn.execute(insert(attempts), rows)


def _sample(content: Content, card: object) -> dict:
    """The fixed columns of an attempt at ``card`` (a scenario card)."""
    assert isinstance(card, ScenarioCard)
    ruleset = content.rulesets[card.ruleset]
    verdict = judge(ruleset, card.infraction, seed_facts(card))
    infraction = ruleset.infraction(verdict.infraction)
    return {
        "card_id": card.id, "ruleset": card.ruleset, "category": infraction.category if infraction else None,
        "card_kind": "scenario", "mode": "practice",
        "chosen_infraction": verdict.infraction, "standard_infraction": verdict.infraction,
        "chosen_penalty": verdict.penalty, "standard_penalty": verdict.penalty,
        "chosen_fixes": verdict.fixes, "standard_fixes": verdict.fixes,
        "chosen_choice": None, "correct_choice": None,
        "infraction_result": "correct", "fixes_result": "correct", "exam_id": None,
    }


def write_reports(store: Store, card_id: str, trainee_ids: list[int], count: int, rng: random.Random) -> None:
    """``count`` problem reports on one card, as a flood from before the limits on filing left
    them (any number per trainee, every tenth resolved), one a second over the last hours."""
    now = dt.datetime.now(dt.UTC)
    rows = [dict(trainee_id=rng.choice(trainee_ids), card_id=card_id, reason="other", text=f"report {n}",
                 answer={"penalty": "warning"}, created_at=now - dt.timedelta(seconds=count - n),
                 resolved=n % 10 == 0, resolution="duplicate" if n % 10 == 0 else None) for n in range(count)]
    with store.engine.begin() as conn:
        conn.execute(insert(problem_reports), rows)
