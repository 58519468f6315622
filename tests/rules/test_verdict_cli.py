"""``python -m quiz verdict`` on the cases revision 2 of the contract changed, run as a user runs it.

A case the document does not decide exits non-zero with one line naming the infraction's
line; a fact the ruleset does not read is an error; the reproductions of the issue give the
document's answer.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "rulesets" / "sources"
YGO_SEED = (SOURCES / "000_3dbd1793d2ab97b4.txt").read_text(encoding="utf-8").splitlines()
PKM_SEED = (SOURCES / "001_f571d43f7b972e1e.txt").read_text(encoding="utf-8").splitlines()


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "quiz", *args], cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )


@pytest.mark.parametrize(
    ("args", "seed", "line", "text"),
    [
        (("yugioh-ocg", "result_bribery", "both_players=true"), YGO_SEED, 86, "金銭などメリットの提供を約束し"),
        (("yugioh-ocg", "intentional_violation", "intentional=false"), YGO_SEED, 61, "故意に、ルールに違反したプレイ"),
        (("pokemon-card-ja", "trash_to_hand_intentional", "intentional=false"), PKM_SEED, 47,
         "トラッシュにあるカードを意図的に"),
        (("pokemon-card-ja", "second_supporter", "intentional=true"), PKM_SEED, 33, "誤って、同じ番に二度目のサポート"),
        # revision 3: the slip-worded lines with no intentional counterpart, and 偽って
        (("pokemon-card-ja", "skipped_confirmation", "intentional=true"), PKM_SEED, 20, "相手の確認を取らず"),
        (("pokemon-card-ja", "missed_opponent_prize", "intentional=true"), PKM_SEED, 21, "取り忘れたことを見逃して"),
        (("pokemon-card-ja", "forgot_prize", "intentional=true"), PKM_SEED, 27, "サイドを取り忘れて進行してしまった"),
        (("pokemon-card-ja", "effect_misplayed", "intentional=true"), PKM_SEED, 34, "カードの効果とは異なるプレイ"),
        (("yugioh-ocg", "false_result_report", "intentional=false"), YGO_SEED, 89, "対戦結果を偽って報告した"),
    ],
)
def test_a_refused_case_exits_non_zero_naming_the_line(args, seed, line, text):
    assert text in seed[line - 1]
    result = run("verdict", *args)
    assert result.returncode != 0
    assert result.stdout == ""
    message = result.stderr.strip()
    assert len(message.splitlines()) == 1, message
    assert f"line {line}" in message and args[1] in message
    assert text in message  # the line itself, so the user need not look it up


@pytest.mark.parametrize(
    ("ruleset", "infraction", "fact"),
    [("pokemon-card-ja", "card_revealed", "prior_same_infraction=1"),
     ("yugioh-ocg", "extra_draw", "prior_warnings=1")],
)
def test_an_undeclared_fact_is_an_error(ruleset, infraction, fact):
    result = run("verdict", ruleset, infraction, fact)
    assert result.returncode != 0 and result.stdout == ""
    assert f"unknown fact '{fact.split('=')[0]}'" in result.stderr


def test_escalation_after_a_warning_keeps_the_fix():
    """The issue's reproduction (line 29): only the penalty changes; the prizes are optional (line 30)."""
    result = run("verdict", "pokemon-card-ja", "forgot_prize", "prior_warnings=1")
    assert result.returncode == 0, result.stderr
    verdict = json.loads(result.stdout)
    assert verdict["penalty"] == "prize_penalty"
    assert verdict["fixes"] == ["restore_game_state"]
    assert verdict["optional_fixes"] == ["opponent_takes_prizes"]


def test_yugioh_extra_draw_that_cannot_be_put_back():
    result = run("verdict", "yugioh-ocg", "extra_draw", "restorable=false")
    assert result.returncode == 0, result.stderr
    verdict = json.loads(result.stdout)
    assert (verdict["penalty"], verdict["fixes"]) == ("duel_loss", [])
    assert 55 in {n for c in verdict["citations"] for n in c["lines"]}


def test_result_by_chance_names_both_players():
    verdict = json.loads(run("verdict", "yugioh-ocg", "result_by_chance").stdout)
    assert (verdict["penalty"], verdict["players"]) == ("disqualification", "both")
