"""Command line: ``python -m quiz validate|coverage|verdict|grade|schema|set-pin|accounts|regrade|db upgrade``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from quiz.content.coverage import coverage
from quiz.content.finding_coverage import finding_coverage, finding_coverage_lines
from quiz.content.loader import RULESETS_DIR, SCENARIOS_DIR, load_content
from quiz.content.targets import content_targets
from quiz.model.errors import QuizError
from quiz.rules.engine import judge
from quiz.rules.variants import DEFAULT_SEED
from quiz.training.answer_grade import grade_json
from quiz.training.presets import PRESETS_PATH, load_presets

if TYPE_CHECKING:
    from quiz.db.store import Store

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m quiz", description="Judge-training quiz tools")
    commands = parser.add_subparsers(dest="command", required=True)
    validate = commands.add_parser("validate", help="check rulesets and cards")
    validate.add_argument("paths", nargs="*", type=Path, help="card files or folders (default: all shipped)")
    commands.add_parser("coverage", help="cards per rule branch")
    verdict = commands.add_parser("verdict", help="the engine's verdict as JSON")
    verdict.add_argument("ruleset")
    verdict.add_argument("infraction")
    verdict.add_argument("facts", nargs="*", metavar="fact=value")
    grade = commands.add_parser("grade", help="grade an answer to a scenario card or floor call, as JSON")
    grade.add_argument("card_id")
    grade.add_argument("--finding", action="append", default=[], metavar="FACT=VALUE", help="a finding (repeatable)")
    grade.add_argument("--infraction")
    grade.add_argument("--penalty")
    grade.add_argument("--fix", action="append", default=[], metavar="ID", help="a fix (repeatable)")
    grade.add_argument("--players", choices=("offender", "both"))
    grade.add_argument("--step", action="append", default=[], metavar="ID",
                       help="a floor call's step taken before ruling (repeatable, in order)")
    grade.add_argument("--seed", type=int, default=DEFAULT_SEED, metavar="N",
                       help="a variant card's showing to grade (default: 0, as a page without a seed shows it);"
                            " the JSON reports the values it drew")
    commands.add_parser("schema", help="write the JSON Schemas to schemas/")
    set_pin = commands.add_parser("set-pin", help="give a trainee a new PIN (the trainee is added if new)")
    set_pin.add_argument("name")
    set_pin.add_argument(
        "--database-url", metavar="URL", help="the app's database (default: $QUIZ_DATABASE_URL or data/quiz.db)"
    )
    accounts = commands.add_parser("accounts", help="supervisor accounts").add_subparsers(
        dest="accounts_command", required=True)
    add = accounts.add_parser("add", help="make a supervisor or admin account (the password is asked twice)")
    add.add_argument("--name", required=True)
    add.add_argument("--role", required=True, choices=("admin", "supervisor"))
    add.add_argument("--store", metavar="NAME", help="a supervisor's store (made if there is none of that name)")
    add.add_argument(
        "--database-url", metavar="URL", help="the app's database (default: $QUIZ_DATABASE_URL or data/quiz.db)"
    )
    link = accounts.add_parser("link", help="let an account sign in with an OpenID Connect provider's subject")
    link.add_argument("--name", required=True, help="the account's name")
    link.add_argument("--issuer", required=True, metavar="URL", help="the provider's issuer (its \"iss\" claim)")
    link.add_argument("--subject", required=True, metavar="SUB", help="the person's \"sub\" claim at that provider")
    link.add_argument(
        "--database-url", metavar="URL", help="the app's database (default: $QUIZ_DATABASE_URL or data/quiz.db)"
    )
    for command, says in (("disable", "an account signs in no more (its sessions end)"),
                           ("enable", "a disabled account signs in again")):
        switch = accounts.add_parser(command, help=says)
        switch.add_argument("--name", required=True, help="the account's name")
        switch.add_argument(
            "--database-url", metavar="URL", help="the app's database (default: $QUIZ_DATABASE_URL or data/quiz.db)"
        )
    regrade = commands.add_parser("regrade", help="re-grade stored answers under today's content")
    regrade.add_argument("--dry-run", action="store_true", help="report what would change, change nothing")
    regrade.add_argument(
        "--database-url", metavar="URL", help="the app's database (default: $QUIZ_DATABASE_URL or data/quiz.db)"
    )
    regrade.add_argument("--top", type=int, default=20, metavar="N", help="cards and trainees listed (default: 20)")
    db = commands.add_parser("db", help="the database's schema").add_subparsers(dest="db_command", required=True)
    upgrade = db.add_parser("upgrade", help="bring the database's schema to this app's (the app does on start)")
    upgrade.add_argument(
        "--database-url", metavar="URL", help="the app's database (default: $QUIZ_DATABASE_URL or data/quiz.db)"
    )
    args = parser.parse_args(argv)
    handler = {"validate": _validate, "coverage": _coverage, "verdict": _verdict, "grade": _grade, "schema": _schema,
               "set-pin": _set_pin, "accounts": _accounts, "regrade": _regrade, "db": _db_upgrade}
    return handler[args.command](args)


def _validate(args: argparse.Namespace) -> int:
    content = load_content(RULESETS_DIR, args.paths or [SCENARIOS_DIR], Path.cwd())
    content.problems += load_presets(content.rulesets, RULESETS_DIR / PRESETS_PATH, Path.cwd(), content=content)[1]
    for problem in content.problems:
        print(problem)
    print(content.summary())
    return EXIT_PROBLEMS if content.problems else EXIT_OK


def _coverage(args: argparse.Namespace) -> int:
    content = load_content()
    for problem in content.problems:
        print(problem, file=sys.stderr)
    rows = coverage(content)
    width = max(len(row.branch) for row in rows)
    for row in rows:
        print(f"{row.branch:<{width}}  {row.cards:>3}{'' if row.ok else '  < 2'}")
    short = [row for row in rows if not row.ok]
    print(f"{len(rows)} branches, {len(short)} with fewer than 2 cards")
    targets = content_targets(content)
    for target in targets:
        print(target.line())
    findings = finding_coverage(content)
    for line in finding_coverage_lines(findings):
        print(line)
    return EXIT_PROBLEMS if short or not all(target.met for target in targets) or not all(
        row.ok for row in findings) else EXIT_OK


def _named_values(items: Sequence[str], what: str) -> dict[str, str] | None:
    """``name=value`` arguments as a mapping; None (with the error said) when one is not."""
    values: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            print(f"error: {what} are given as name=value, not {item!r}", file=sys.stderr)
            return None
        values[name] = value
    return values


def _verdict(args: argparse.Namespace) -> int:
    facts = _named_values(args.facts, "facts")
    if facts is None:
        return EXIT_USAGE
    content = load_content(card_paths=[])
    ruleset = content.rulesets.get(args.ruleset)
    if ruleset is None:
        print(f"error: unknown ruleset {args.ruleset!r}; known: {', '.join(content.rulesets)}", file=sys.stderr)
        return EXIT_USAGE
    try:
        verdict = judge(ruleset, args.infraction, facts)
    except QuizError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    print(json.dumps(verdict.to_json(), ensure_ascii=False, indent=2))
    return EXIT_OK


def _grade(args: argparse.Namespace) -> int:
    findings = _named_values(args.finding, "findings")
    if findings is None:
        return EXIT_USAGE
    content = load_content()
    try:
        graded = grade_json(content, args.card_id, findings, args.infraction, args.penalty, tuple(args.fix),
                            args.players, tuple(args.step), seed=args.seed)
    except QuizError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    print(json.dumps(graded, ensure_ascii=False, indent=2))
    return EXIT_OK


def _schema(args: argparse.Namespace) -> int:
    from quiz.content.schema import write_schemas

    for path in write_schemas():
        print(f"wrote {path}")
    return EXIT_OK


def _set_pin(args: argparse.Namespace) -> int:
    """Read the PIN twice from the terminal (or once per line from a pipe) and store its hash."""
    from quiz.access.accounts import set_pin
    from quiz.access.pins import check_new_pin
    from quiz.model.names import valid_name

    first, second = _read_secret("New PIN: "), _read_secret("Same PIN again: ")
    if first != second:
        print("error: the two PINs differ; nothing was changed", file=sys.stderr)
        return EXIT_USAGE
    with opened_store(args.database_url) as store:
        try:
            existing = store.find_trainee(args.name)  # an existing name is kept as it is, even one older rules allowed
            check_new_pin(first)
            if existing is None:
                valid_name(args.name)
            trainee = existing or store.trainee(args.name)
            set_pin(store, trainee.id, first, None)  # the server's console: recorded as the system
        except ValueError as error:
            return _refused(error)
    print(f"set a new PIN for {trainee.name}")
    return EXIT_OK


def _regrade(args: argparse.Namespace) -> int:
    """Re-grade every stored answer under the content the app serves (the same folders and
    environment: shipped cards and imported packs) and print what changed, or with
    ``--dry-run`` what would."""
    from quiz.content.snapshot import load_served_content as app_content  # the app's content, as it loads it
    from quiz.db.regrade import apply_regrade, plan_regrade, report_lines

    content = app_content()
    if content.problems:
        print(f"warning: the content has {len(content.problems)} problems (see `python -m quiz validate`); "
              "answers to cards that did not load are left alone", file=sys.stderr)
    with opened_store(args.database_url) as store:
        if store.upgraded is not None:
            print(f"the database was {store.upgraded} (as the app does on start)")
        report = plan_regrade(store, content) if args.dry_run else apply_regrade(store, content)
    for line in report_lines(report, top=max(args.top, 0)):
        print(line)
    return EXIT_OK


def _db_upgrade(args: argparse.Namespace) -> int:
    """Bring the database to the head revision, as a starting app would, and say what was done."""
    try:
        with opened_store(args.database_url) as store:
            upgraded = store.upgraded
    except QuizError as error:  # a newer app's database: left untouched
        print(f"error: {error}", file=sys.stderr)
        return EXIT_PROBLEMS
    print(f"the database was {upgraded}" if upgraded else "the database was already current")
    return EXIT_OK


def _accounts(args: argparse.Namespace) -> int:
    commands = {"link": _link_account, "add": _add_account, "disable": _switch_account, "enable": _switch_account}
    return commands[args.accounts_command](args)


def _switch_account(args: argparse.Namespace) -> int:
    """Disable an account, or enable a disabled one again, as it is now (recorded in the
    audit log as the system's)."""
    from quiz.access.supervisors import account, disable_account, enable_account

    disable = args.accounts_command == "disable"
    with opened_store(args.database_url) as store:
        try:
            found = account(store, args.name)
            if found is None:
                return _refused(f"no account {args.name!r}")
            if found.disabled == disable:
                print(f"the account {found.supervisor.name} is already {'disabled' if disable else 'enabled'}")
                return EXIT_OK
            (disable_account if disable else enable_account)(store, found.seen, None)
        except QuizError as error:
            return _refused(error)
    print(f"{'disabled' if disable else 'enabled'} the account {found.supervisor.name}")
    return EXIT_OK


def _link_account(args: argparse.Namespace) -> int:
    """Link an account to its owner's subject at the deployment's OpenID Connect provider
    (recorded in the audit log as the system's)."""
    from quiz.access.oidc_links import link_oidc

    with opened_store(args.database_url) as store:
        try:
            linked = link_oidc(store, args.name, args.issuer, args.subject, None)
        except ValueError as error:
            return _refused(error)
    print(f"linked the account {linked.name} to {args.subject} at {args.issuer}")
    return EXIT_OK


def _add_account(args: argparse.Namespace) -> int:
    """Make an account from the server's console: how a deployment without the old shared
    password gets its first admin. Recorded in the audit log as the system's."""
    from quiz.access.stores import create_store, store_by_name
    from quiz.access.supervisors import create_account

    if (args.role == "supervisor") != (args.store is not None):
        print("error: a supervisor needs --store, an admin takes none", file=sys.stderr)
        return EXIT_USAGE
    first, second = _read_secret("Password: "), _read_secret("Same password again: ")
    if first != second:
        print("error: the two passwords differ; nothing was changed", file=sys.stderr)
        return EXIT_USAGE
    with opened_store(args.database_url) as store:
        try:
            store_id = None
            if args.store is not None:
                found = store_by_name(store, args.store)  # compared as trainee names are: NFKC, any case
                if found is not None and found.name != args.store.strip():
                    return _refused(f"the store is named {found.name!r}, not {args.store.strip()!r}: give its exact "
                                    "name")
                if found is None:
                    found = create_store(store, args.store, None)
                    print(f"made the store {found.name}")
                store_id = found.id
            made = create_account(store, args.name, first, args.role, store_id, None)
        except ValueError as error:
            return _refused(error)
    print(f"made the {made.role} account {made.name}")
    return EXIT_OK


@contextmanager
def opened_store(database_url: str | None) -> Iterator[Store]:
    """The database a command acts on (migrated to the head revision as a starting app would),
    its connections closed and watches stopped however the command ends."""
    from quiz.db.store import Store  # only the commands that need a database open one

    store = Store(database_url)
    try:
        yield store
    finally:
        store.dispose()


def _refused(reason: object) -> int:
    """Say why a command changed nothing: the usage exit."""
    print(f"error: {reason}; nothing was changed", file=sys.stderr)
    return EXIT_USAGE


def _read_secret(prompt: str) -> str:
    if sys.stdin.isatty():
        import getpass

        return getpass.getpass(prompt)
    return sys.stdin.readline().rstrip("\r\n")
