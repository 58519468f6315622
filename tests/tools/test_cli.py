"""The command line, run as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC
from pathlib import Path

import pytest

from quiz.db.migrate import HEAD_REVISION

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, cwd: Path = ROOT, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "quiz", *args], cwd=cwd, capture_output=True, text=True, timeout=120,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, input=stdin,
    )


def test_verdict_prints_json_with_the_contract_keys():
    result = run("verdict", "yugioh-ocg", "tardiness", "minutes_late=10")
    assert result.returncode == 0, result.stderr
    verdict = json.loads(result.stdout)
    assert {"penalty", "accepted", "fixes", "optional_fixes", "applies_to", "citations", "trace"} <= set(verdict)
    assert verdict["penalty"] == "match_loss"
    assert verdict["trace"] == ["yugioh-ocg/tardiness/from_10"]
    assert verdict["citations"][0]["ja"].startswith("- 指定の集合時間後１０分経過しても")


def test_verdict_with_booleans():
    result = run("verdict", "pokemon-card-ja", "extra_draw", "intentional=true")
    assert json.loads(result.stdout)["penalty"] == "disqualification"


def test_verdict_errors_exit_2_with_one_line():
    for args, needle in [
        (("verdict", "chess", "tardiness"), "unknown ruleset 'chess'"),
        (("verdict", "yugioh-ocg", "napping"), "unknown infraction 'napping'"),
        (("verdict", "yugioh-ocg", "tardiness", "minutes_late=5", "mood=1"), "unknown fact 'mood'"),
        (("verdict", "yugioh-ocg", "tardiness", "minutes_late=soon"), "whole number"),
        (("verdict", "yugioh-ocg", "tardiness", "minutes_late"), "name=value"),
    ]:
        result = run(*args)
        assert result.returncode == 2, args
        assert needle in result.stderr and len(result.stderr.strip().splitlines()) == 1
        assert result.stdout == ""


def test_validate_shipped_content():
    result = run("validate")
    assert result.returncode == 0, result.stdout
    last = result.stdout.strip().splitlines()[-1]
    assert last.startswith("2 rulesets, 32 infractions, ") and last.endswith(", 0 errors")


def test_validate_reports_a_broken_file(tmp_path):
    bad = tmp_path / "yugioh-ocg" / "bad.yaml"
    bad.parent.mkdir()
    bad.write_text("cards:\n  - id: x\n    kind: scenario\n", encoding="utf-8")
    result = run("validate", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 1
    lines = result.stdout.strip().splitlines()
    assert lines[0].startswith("yugioh-ocg/bad.yaml:2: cards[0].")
    assert lines[-1].endswith("errors") and not lines[-1].endswith(" 0 errors")



def test_validate_reports_a_title_that_names_the_answer(tmp_path):
    from tests.content.test_card_checks import SCENARIO

    card = tmp_path / "yugioh-ocg" / "late.yaml"
    card.parent.mkdir()
    card.write_text(SCENARIO.replace("{ja: 遅れて着席,", "{ja: 今日2度目の遅刻,"), encoding="utf-8")
    result = run("validate", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.splitlines()[0] == (
        "yugioh-ocg/late.yaml:5: cards[0].title.ja: the title names the answer's infraction '遅刻' (ja); "
        "titles are shown after the answer, but keep them neutral")

def test_coverage_table():
    result = run("coverage")
    assert result.returncode == 0, result.stdout
    assert "yugioh-ocg/tardiness/from_5" in result.stdout
    assert any(line.endswith("0 with fewer than 2 cards") for line in result.stdout.splitlines())
    assert "ok   scenario cards with findings" in result.stdout  # the content targets, met


def test_committed_schemas_are_current():
    from quiz.content.schema import SCHEMA_DIR, schema_texts

    for name, text in schema_texts().items():
        assert (SCHEMA_DIR / name).read_text(encoding="utf-8") == text, f"run: python -m quiz schema ({name})"


def test_validate_checks_the_exam_presets(tmp_path, monkeypatch, capsys):
    import shutil

    from quiz import cli

    shutil.copytree(ROOT / "rulesets", tmp_path / "rulesets")
    presets = tmp_path / "rulesets" / "exams" / "presets.yaml"
    presets.write_text(presets.read_text(encoding="utf-8").replace("rulesets: [pokemon-card-ja]", "rulesets: [chess]", 1),
                       encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "RULESETS_DIR", tmp_path / "rulesets")
    assert cli.main(["validate", str(ROOT / "scenarios")]) == 1
    out = capsys.readouterr().out.splitlines()
    problems = [line for line in out if line.startswith("rulesets/exams/presets.yaml:")]
    assert len(problems) == 1 and "chess" in problems[0]
    assert out[-1].endswith(" 1 errors")


def test_set_pin_gives_a_trainee_a_pin_they_sign_in_with(tmp_path):
    from quiz.access.accounts import name_throttles, sign_in
    from quiz.access.throttles import LoginThrottle
    from quiz.db.store import Store

    url = f"sqlite:///{tmp_path / 'quiz.db'}"
    setup = Store(url)
    legacy = setup.trainee("Chie")  # made before PINs existed
    setup.dispose()
    result = run("set-pin", "Chie", "--database-url", url, stdin="8642\n8642\n")
    assert result.returncode == 0, result.stderr
    assert "Chie" in result.stdout and "8642" not in result.stdout + result.stderr
    store = Store(url)
    try:
        assert sign_in(store, "Chie", "8642", name_throttles(), LoginThrottle()).trainee == legacy
    finally:
        store.dispose()


def test_set_pin_changes_nothing_when_the_pins_differ_or_break_the_rule(tmp_path):
    from quiz.db.store import Store

    url = f"sqlite:///{tmp_path / 'quiz.db'}"
    for stdin, needle in (("8642\n8643\n", "differ"), ("12\n12\n", "at least 4"), ("1234\n1234\n", "too easy")):
        result = run("set-pin", "Dai", "--database-url", url, stdin=stdin)
        assert result.returncode == 2 and needle in result.stderr and "nothing was changed" in result.stderr
    store = Store(url)
    try:
        assert store.find_trainee("Dai") is None
    finally:
        store.dispose()


def test_accounts_add_makes_the_first_admin_and_a_stores_supervisor_who_sign_in(tmp_path):
    from quiz.access.supervisors import sign_in
    from quiz.access.throttles import LoginThrottle
    from quiz.db.store import Store

    url = f"sqlite:///{tmp_path / 'quiz.db'}"
    made = run("accounts", "add", "--name", "Owner", "--role", "admin", "--database-url", url,
               stdin="owner-pass-1\nowner-pass-1\n")
    assert made.returncode == 0, made.stderr
    assert "Owner" in made.stdout and "owner-pass-1" not in made.stdout + made.stderr
    made = run("accounts", "add", "--name", "Tencho", "--role", "supervisor", "--store", "Shibuya",
               "--database-url", url, stdin="tencho-pass\ntencho-pass\n")
    assert made.returncode == 0 and "Shibuya" in made.stdout, made.stderr
    refused = run("accounts", "add", "--name", "Fuku", "--role", "supervisor", "--database-url", url,
                  stdin="fuku-pass-1\nfuku-pass-1\n")
    assert refused.returncode == 2 and "--store" in refused.stderr
    short = run("accounts", "add", "--name", "Dai", "--role", "admin", "--database-url", url, stdin="short\nshort\n")
    assert short.returncode == 2 and "nothing was changed" in short.stderr
    store = Store(url)
    try:
        owner = sign_in(store, "owner", "owner-pass-1", LoginThrottle()).supervisor
        tencho = sign_in(store, "Tencho", "tencho-pass", LoginThrottle()).supervisor
        assert owner is not None and owner.is_admin
        assert tencho is not None and tencho.role == "supervisor" and tencho.store_id is not None
    finally:
        store.dispose()


def test_regrade_reports_on_a_database_of_the_first_release_then_credits_the_right_answer(tmp_path):
    """A version-1 database (no drawn values, no fingerprints) whose stored key of a shipped
    knowledge card is out of date: the dry run reports and changes nothing, the run credits it."""
    from datetime import datetime

    from sqlalchemy import create_engine, select

    from quiz.db.store import Store
    from quiz.db.tables import attempt_regrades, attempts
    from tests.db.releases import RELEASES, make_release_database
    from tests.shipped_content import shipped_content

    card = shipped_content().knowledge_cards[0]  # whichever ships today: ids change under other work
    url = f"sqlite:///{tmp_path / 'quiz.db'}"
    first = make_release_database(url, RELEASES[0])
    trainees, old_attempts = first.tables["trainees"], first.tables["attempts"]
    when = datetime(2025, 1, 5, 10, tzinfo=UTC)
    engine = create_engine(url)
    with engine.begin() as conn:
        trainee_id = conn.execute(trainees.insert().values(name="Emi", created_at=when)).inserted_primary_key[0]
        answer = dict(trainee_id=trainee_id, ruleset=card.ruleset, card_kind="knowledge", mode="practice",
                      chosen_fixes=(), standard_fixes=(), seconds=8.0, answered_at=when)
        conn.execute(old_attempts.insert().values(card_id=card.id, chosen_choice=card.answer,
                                                  correct_choice="old-key", correct=False, **answer))
        conn.execute(old_attempts.insert().values(card_id="no-such-card", chosen_choice="a",
                                                  correct_choice="a", correct=True, **answer))
    engine.dispose()

    dry = run("regrade", "--dry-run", "--database-url", url)
    assert dry.returncode == 0, dry.stderr
    assert f"brought from schema version 1 to revision {HEAD_REVISION}" in dry.stdout
    assert "2 answers graded again under content" in dry.stdout
    assert "1 would change (1 now right, 0 now wrong" in dry.stdout
    assert "left alone: 1: the card is not in today's content (no-such-card)" in dry.stdout
    assert card.id in dry.stdout and "Emi" in dry.stdout
    assert dry.stdout.rstrip().endswith("dry run: nothing was changed")
    store = Store(url)
    try:
        with store.engine.connect() as conn:
            assert conn.execute(select(attempts.c.correct).order_by(attempts.c.id)).scalars().all() == [False, True]
    finally:
        store.dispose()

    done = run("regrade", "--database-url", url)
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith("re-graded 1 answers")
    store = Store(url)
    try:
        with store.engine.connect() as conn:
            assert conn.execute(select(attempts.c.correct).order_by(attempts.c.id)).scalars().all() == [True, True]
            kept = conn.execute(select(attempt_regrades.c.correct_choice, attempt_regrades.c.correct)).all()
        assert [tuple(row) for row in kept] == [("old-key", False)]
    finally:
        store.dispose()


def test_accounts_link_lets_an_account_sign_in_with_its_provider_subject(tmp_path):
    from quiz.access.oidc_links import account_for_oidc
    from quiz.db.store import Store

    url = f"sqlite:///{tmp_path / 'quiz.db'}"
    assert run("accounts", "add", "--name", "Owner", "--role", "admin", "--database-url", url,
               stdin="owner-pass-1\nowner-pass-1\n").returncode == 0
    linked = run("accounts", "link", "--name", "owner", "--issuer", "https://id.example.org",
                 "--subject", "alice", "--database-url", url)
    assert linked.returncode == 0 and "Owner" in linked.stdout, linked.stderr
    unknown = run("accounts", "link", "--name", "Nobody", "--issuer", "https://id.example.org",
                  "--subject", "bob", "--database-url", url)
    assert unknown.returncode == 2 and "nothing was changed" in unknown.stderr
    store = Store(url)
    try:
        owner = account_for_oidc(store, "https://id.example.org", "alice")
        assert owner is not None and owner.name == "Owner"
        assert account_for_oidc(store, "https://id.example.org", "bob") is None
    finally:
        store.dispose()


def test_accounts_disable_and_enable_switch_an_account_and_are_audited(tmp_path):
    from quiz.access.supervisors import account
    from quiz.db import audit
    from quiz.db.store import Store
    from tests.scopes import EVERY_STORE

    url = f"sqlite:///{tmp_path / 'quiz.db'}"
    for name in ("Owner", "Second"):
        assert run("accounts", "add", "--name", name, "--role", "admin", "--database-url", url,
                   stdin="owner-pass-1\nowner-pass-1\n").returncode == 0
    disabled = run("accounts", "disable", "--name", "second", "--database-url", url)
    assert disabled.returncode == 0 and "disabled the account Second" in disabled.stdout, disabled.stderr
    last = run("accounts", "disable", "--name", "Owner", "--database-url", url)
    assert last.returncode == 2 and "nothing was changed" in last.stderr  # the last enabled admin
    unknown = run("accounts", "enable", "--name", "Nobody", "--database-url", url)
    assert unknown.returncode == 2 and "no account" in unknown.stderr
    enabled = run("accounts", "enable", "--name", "Second", "--database-url", url)
    assert enabled.returncode == 0 and "enabled the account Second" in enabled.stdout, enabled.stderr
    store = Store(url)
    try:
        assert not account(store, "Second").disabled and not account(store, "Owner").disabled
        rows = [(e.actor, e.action, e.target) for e in audit.entries(store, EVERY_STORE)
                if e.action in ("account_disabled", "account_enabled")]
        assert rows == [(audit.SYSTEM, "account_enabled", "Second"), (audit.SYSTEM, "account_disabled", "Second")]
    finally:
        store.dispose()


def test_grade_on_a_variant_card_reports_the_values_it_drew():
    default = run("grade", "ygo-variant-tardiness-empty-seat", "--penalty", "warning")
    assert default.returncode == 0, default.stderr
    variant = json.loads(default.stdout)["variant"]
    assert variant["seed"] == 0
    assert set(variant["values"]) == {"event", "round", "player", "minutes"}
    assert set(variant["values"]["player"]) == {"ja", "en"}
    minutes = variant["values"]["minutes"]
    assert variant["facts"] == {"minutes_late": minutes}
    expected = "warning" if minutes < 5 else "duel_loss" if minutes < 10 else "match_loss"
    graded = run("grade", "ygo-variant-tardiness-empty-seat", "--penalty", expected, "--finding",
                 f"minutes_late={minutes}", "--infraction", "tardiness")
    assert json.loads(graded.stdout)["penalty"] == "correct"
    seeds = [json.loads(run("grade", "ygo-variant-tardiness-empty-seat", "--seed", str(seed)).stdout)["variant"]
             for seed in (1, 2, 3)]
    assert [v["seed"] for v in seeds] == [1, 2, 3]


def test_grade_on_a_plain_card_reports_no_variant():
    result = run("grade", "ygo-cc-extradraw-card-beside-the-deck", "--infraction", "extra_draw", "--penalty", "warning",
                 "--fix", "return_extra_to_top", "--finding", "identifiable=true", "--finding", "restorable=true")
    graded = json.loads(result.stdout)
    assert "variant" not in graded and graded["correct"] is True


def test_add_account_refuses_a_store_name_that_only_differs_in_case_or_width(tmp_path):
    """Finding L4: ``--store storea`` beside ``StoreA`` silently made a second store."""
    from quiz.access.stores import list_stores
    from quiz.db.store import Store

    url = f"sqlite:///{tmp_path / 'quiz.db'}"
    made = run("accounts", "add", "--name", "Tencho", "--role", "supervisor", "--store", "StoreA",
               "--database-url", url, stdin="owner-pass-1\nowner-pass-1\n")
    assert made.returncode == 0 and "made the store StoreA" in made.stdout, made.stderr
    for near in ("storea", "ＳｔｏｒｅＡ", " STOREA "):
        refused = run("accounts", "add", "--name", f"Other{len(near)}", "--role", "supervisor", "--store", near,
                      "--database-url", url, stdin="owner-pass-1\nowner-pass-1\n")
        assert refused.returncode == 2 and "'StoreA'" in refused.stderr and "nothing was changed" in refused.stderr
    same = run("accounts", "add", "--name", "Second", "--role", "supervisor", "--store", "StoreA",
               "--database-url", url, stdin="owner-pass-1\nowner-pass-1\n")
    assert same.returncode == 0 and "made the store" not in same.stdout
    store = Store(url)
    try:
        assert [info.name for info in list_stores(store)] == ["StoreA"]
    finally:
        store.dispose()


def test_opened_store_disposes_the_store_however_the_command_ends(tmp_path, monkeypatch):
    from quiz.cli import opened_store
    from quiz.db.store import Store

    disposed: list[Store] = []
    dispose = Store.dispose
    monkeypatch.setattr(Store, "dispose", lambda store: (disposed.append(store), dispose(store))[1])
    url = f"sqlite:///{tmp_path / 'quiz.db'}"
    with opened_store(url) as store:
        store.trainee("Eri")
    assert disposed == [store]
    with pytest.raises(ValueError), opened_store(url) as failing:
        raise ValueError("refused")
    assert disposed == [store, failing]
    with opened_store(url) as again:
        assert again.find_trainee("Eri") is not None
