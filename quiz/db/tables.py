"""Every table of the database, on one MetaData, with the column types they share.

A fresh database is made from these at once; an existing one is brought to them by the
Alembic revisions in ``quiz/db/migrations/versions`` (``quiz.db.migrate``), so a change here
comes with a revision that makes it (tests/db/test_migrations.py compares the two).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Iterable

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    TypeDecorator,
    UniqueConstraint,
)

from quiz.model.attempt import FIX_SEPARATOR
from quiz.model.names import NAME_KEY_MAX, NAME_MAX


class UTCDateTime(TypeDecorator):
    """A timezone-aware datetime, stored in UTC and always read back aware, in UTC."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(f"a naive datetime cannot be stored: {value!r}")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class FixList(TypeDecorator):
    """A set of fix ids, stored as one sorted comma-joined string and read back as a tuple."""

    impl = Text
    cache_ok = True

    def process_bind_param(self, value: Iterable[str] | None, dialect: Any) -> str:
        return FIX_SEPARATOR.join(sorted(value or ()))

    def process_result_value(self, value: str | None, dialect: Any) -> tuple[str, ...]:
        return tuple(value.split(FIX_SEPARATOR)) if value else ()


metadata = MetaData()

# The schema version releases before Alembic kept (1 to 3); read to take up such a database,
# and left at 4, which they refuse (``quiz.db.migrate``).
schema_version = Table(
    "schema_version",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("version", Integer, nullable=False),
)

trainees = Table(
    "trainees",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(NAME_MAX), nullable=False, unique=True),
    Column("created_at", UTCDateTime, nullable=False),
    Column("store_id", Integer, ForeignKey("stores.id")),  # None: a self-study player in no store
    Index("ix_trainees_store", "store_id"),
)

attempts = Table(
    "attempts",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("trainee_id", Integer, ForeignKey("trainees.id"), nullable=False),
    Column("card_id", String(120), nullable=False),
    Column("ruleset", String(64), nullable=False),
    Column("category", String(64)),
    Column("card_kind", String(16), nullable=False),
    Column("mode", String(16), nullable=False),
    Column("chosen_infraction", String(64)),
    Column("standard_infraction", String(64)),
    Column("chosen_penalty", String(64)),
    Column("standard_penalty", String(64)),
    Column("chosen_fixes", FixList, nullable=False),
    Column("standard_fixes", FixList, nullable=False),
    Column("chosen_choice", String(64)),
    Column("correct_choice", String(64)),
    Column("infraction_result", String(16)),
    Column("penalty_result", String(16)),
    Column("fixes_result", String(16)),
    Column("correct", Boolean, nullable=False),
    Column("penalty_steps", Integer),
    Column("seconds", Float, nullable=False),
    Column("answered_at", UTCDateTime, nullable=False),
    Column("exam_id", Integer),
    # schema version 2: what the answer was graded under, and who receives the penalty
    Column("variant_values", JSON),  # quiz.rules.variants.stored_values of a variant card's showing
    Column("content_fingerprint", String(16)),  # Content.fingerprint() at grading time
    Column("chosen_players", String(16)),
    Column("standard_players", String(16)),
    Column("players_result", String(16)),
    # a card with findings: quiz.model.attempt.FindingRecord.stored() of each, in the card's order
    Column("findings", JSON),
    Column("penalty_follows_findings", Boolean),  # a wrong penalty on a card with findings: misjudged facts?
    # a floor call: quiz.model.investigation.InvestigationRecord.stored(), the steps taken and their grade
    Column("investigation", JSON),
    Index("ix_attempts_trainee_answered", "trainee_id", "answered_at"),
    Index("ix_attempts_card", "card_id"),
    Index("ix_attempts_trainee_id", "trainee_id", "id"),  # the newest attempt of a trainee, at once
)

exams = Table(
    "exams",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("trainee_id", Integer, ForeignKey("trainees.id"), nullable=False),
    Column("preset", String(64), nullable=False),
    Column("settings", JSON, nullable=False),
    Column("card_ids", JSON, nullable=False),  # the questions, in order
    Column("seeds", JSON, nullable=False),  # one per question: the showing of a variant card
    Column("started_at", UTCDateTime, nullable=False),
    Column("deadline", UTCDateTime, nullable=False),
    Column("finished_at", UTCDateTime),
    Column("score", Integer),
    Column("passed", Boolean),
    Index("ix_exams_trainee_started", "trainee_id", "started_at"),
)

review_schedules = Table(
    "review_schedules",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("trainee_id", Integer, ForeignKey("trainees.id"), nullable=False),
    Column("card_id", String(120), nullable=False),
    Column("fsrs_card", Text, nullable=False),  # fsrs.Card.to_json(): the whole schedule
    Column("due", UTCDateTime, nullable=False),  # copies of the JSON's, for queries
    Column("last_review", UTCDateTime),
    UniqueConstraint("trainee_id", "card_id", name="uq_review_schedules_trainee_card"),
    Index("ix_review_schedules_trainee_due", "trainee_id", "due"),
)

trainee_pins = Table(
    "trainee_pins",
    metadata,
    Column("trainee_id", Integer, ForeignKey("trainees.id"), primary_key=True, autoincrement=False),
    Column("pin_hash", String(200), nullable=False),  # quiz.access.pins.hash_pin: salted scrypt, never the PIN
    Column("updated_at", UTCDateTime, nullable=False),
)


# Re-grading (``quiz.db.regrade``): the grade of an attempt as it was before each re-grade, so
# the original stays recoverable however often it is re-graded (its attempt's oldest row).
attempt_regrades = Table(
    "attempt_regrades",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("attempt_id", Integer, ForeignKey("attempts.id"), nullable=False),
    Column("regraded_at", UTCDateTime, nullable=False),
    Column("from_fingerprint", String(16)),  # the attempt's content_fingerprint before (None: older release)
    Column("to_fingerprint", String(16), nullable=False),  # the content it was re-graded under
    Column("category", String(64)),
    Column("standard_infraction", String(64)),
    Column("standard_penalty", String(64)),
    Column("standard_fixes", FixList, nullable=False),
    Column("correct_choice", String(64)),
    Column("infraction_result", String(16)),
    Column("penalty_result", String(16)),
    Column("fixes_result", String(16)),
    Column("players_result", String(16)),
    # a card with findings: quiz.model.attempt.FindingRecord.stored() of each, in the card's order
    Column("findings", JSON),
    Column("penalty_follows_findings", Boolean),  # a wrong penalty on a card with findings: misjudged facts?
    Column("investigation", JSON),  # a floor call's investigation, graded as it was
    Column("standard_players", String(16)),
    Column("correct", Boolean, nullable=False),
    Column("penalty_steps", Integer),
    Index("ix_attempt_regrades_attempt", "attempt_id", "id"),
)

# Accounts (``quiz.access.throttles``, ``quiz.access.accounts``): what throttles wrong PINs and passwords,
# kept here so that every server of a deployment shares it and no client can clear it. One row
# per throttled subject (a trainee name's canonical key, or the supervisor password), deleted
# on success; a row without a lock is forgotten a day after its last failure.
THROTTLE_SUBJECT_MAX = NAME_KEY_MAX
login_throttles = Table(
    "login_throttles",
    metadata,
    Column("scope", String(16), primary_key=True),  # "pin" (per name) or "supervisor"
    Column("subject", String(THROTTLE_SUBJECT_MAX), primary_key=True),  # quiz.model.names.name_key, or ""
    Column("failures", Integer, nullable=False),  # wrong attempts in a row (since a success, a lift, or a quiet day)
    Column("weight", Float, nullable=False),  # the same failures, each fading with the policy's half-life
    Column("last_failure_at", UTCDateTime, nullable=False),
    Column("not_before", UTCDateTime, nullable=False),  # no attempt is checked before then
    Column("locked_at", UTCDateTime),  # set by the lock-out: only a supervisor lifts it
    Index("ix_login_throttles_last_failure", "last_failure_at"),
)

# The canonical key of each trainee's name (``quiz.model.names.name_key``): unique, so "Alice",
# "ALICE" and "Ａlice" are one account. Trainees that collided before keys existed keep
# working under their exact names; the later of them has no row here (see
# ``quiz.access.look_alikes.look_alike_groups``).
trainee_name_keys = Table(
    "trainee_name_keys",
    metadata,
    Column("trainee_id", Integer, ForeignKey("trainees.id"), primary_key=True, autoincrement=False),
    Column("name_key", String(NAME_KEY_MAX), nullable=False, unique=True),
)

trainee_time_zones = Table(
    "trainee_time_zones",
    metadata,
    Column("trainee_id", Integer, ForeignKey("trainees.id"), primary_key=True, autoincrement=False),
    Column("time_zone", String(64), nullable=False),  # an IANA name: the calendar days of the trainee's figures
    Column("updated_at", UTCDateTime, nullable=False),
)

# Each trainee's daily goal (``quiz.db.goals``): the cards to answer on a day for it to count
# in their streak. No row: the default goal.
trainee_goals = Table(
    "trainee_goals",
    metadata,
    Column("trainee_id", Integer, ForeignKey("trainees.id"), primary_key=True, autoincrement=False),
    Column("cards_per_day", Integer, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
)

# The games a trainee studies (``quiz.db.study_games``): the sidebar's game filter, kept per
# trainee so that a reload, another device or the next day starts where they left it. No row:
# not asked yet (the first visit asks).
trainee_games = Table(
    "trainee_games",
    metadata,
    Column("trainee_id", Integer, ForeignKey("trainees.id"), primary_key=True, autoincrement=False),
    Column("rulesets", JSON, nullable=False),  # ruleset ids, in the order chosen
    Column("updated_at", UTCDateTime, nullable=False),
)

# Each trainee's exam dates (``quiz.db.exam_dates``), one per game: until that day, review is
# planned so that every studied card of the game is seen again before it. No row: no date.
exam_dates = Table(
    "exam_dates",
    metadata,
    Column("trainee_id", Integer, ForeignKey("trainees.id"), primary_key=True, autoincrement=False),
    Column("ruleset_id", String(64), primary_key=True),
    Column("exam_day", Date, nullable=False),  # a calendar day in the trainee's own time zone
    Column("updated_at", UTCDateTime, nullable=False),
)

# Devices a trainee stays signed in on (``quiz.access.device_tokens``): a reload, a reconnect or
# a phone that dropped a background tab signs back in with the token its browser keeps, until
# it expires, the trainee signs out there, or their PIN changes (any device). Only a digest of
# the token's secret is kept; never the PIN.
trainee_devices = Table(
    "trainee_devices",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("trainee_id", Integer, ForeignKey("trainees.id"), nullable=False),
    Column("secret_digest", String(64), nullable=False),  # sha256 hex of the token's secret
    Column("credential_version", String(32), nullable=False),  # the PIN's, when issued: a new PIN ends it
    Column("created_at", UTCDateTime, nullable=False),
    Column("expires_at", UTCDateTime, nullable=False),
    Column("revoked_at", UTCDateTime),
    Index("ix_trainee_devices_trainee", "trainee_id"),
)

# Questions of an open exam the candidate flagged for later (``quiz.db.exam_flags``): kept in
# the database so that a refresh or another server still shows them; dropped at hand-in.
exam_flags = Table(
    "exam_flags",
    metadata,
    Column("exam_id", Integer, ForeignKey("exams.id"), primary_key=True, autoincrement=False),
    Column("card_id", String(120), primary_key=True),
)

# A floor call being investigated (``quiz.db.investigations``): each step the trainee took, kept
# the moment it is taken, so that a reload, a restart or another tab resumes the investigation
# where it was; the steps of a call are deleted when its answer is stored (the attempt keeps
# them). ``exam_key`` is the exam's id for a question of a mock exam, 0 elsewhere.
investigation_steps = Table(
    "investigation_steps",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("trainee_id", Integer, ForeignKey("trainees.id"), nullable=False),
    Column("card_id", String(120), nullable=False),
    Column("exam_key", Integer, nullable=False),
    Column("step_id", String(64), nullable=False),
    Column("taken_at", UTCDateTime, nullable=False),
    UniqueConstraint("trainee_id", "card_id", "exam_key", "step_id", name="uq_investigation_steps_step"),
)

# Problem reports (``quiz.db.problem_reports``): a trainee's report that a card is wrong or
# unclear, with what the card showed and what the trainee answered; a report never changes a
# grade. A supervisor resolves it with a note.
REPORT_TEXT_MAX = 2000
problem_reports = Table(
    "problem_reports",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("trainee_id", Integer, ForeignKey("trainees.id"), nullable=False),
    Column("card_id", String(120), nullable=False),
    Column("reason", String(32), nullable=False),  # one of quiz.db.problem_reports.REASONS
    Column("text", Text, nullable=False),  # the trainee's words, at most REPORT_TEXT_MAX characters
    Column("content_fingerprint", String(16)),  # Content.fingerprint() of the card as shown
    Column("variant_values", JSON),  # quiz.rules.variants.stored_values of a variant card's showing
    Column("answer", JSON),  # the trainee's answer: the chosen infraction, penalty, fixes, players or choice
    Column("attempt_id", Integer, ForeignKey("attempts.id")),  # the stored attempt answered, when found
    Column("created_at", UTCDateTime, nullable=False),
    Column("resolved", Boolean, nullable=False),
    Column("resolution", Text),  # the supervisor's note, at most REPORT_TEXT_MAX characters
    Column("resolved_at", UTCDateTime),
    Index("ix_problem_reports_card", "card_id", "resolved"),
    Index("ix_problem_reports_trainee_created", "trainee_id", "created_at"),  # the limits on filing
)


# Stores and accounts (``quiz.access.stores``, ``quiz.access.supervisors``): a store owns its
# trainees, supervisors, packs and assignments; a supervisor account is a person of one store,
# an admin one of every store. A deployment from before stores becomes one store.
stores = Table(
    "stores",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(NAME_MAX), nullable=False, unique=True),
    Column("created_at", UTCDateTime, nullable=False),
    # quiz.model.names.name_key of the name: ``StoreA``, ``storea`` and ``ＳｔｏｒｅＡ`` are one
    # store. None only for a store made before, whose key another older store had first.
    Column("name_key", String(NAME_KEY_MAX)),
    Index("ix_stores_name_key", "name_key", unique=True),
)

supervisor_accounts = Table(
    "supervisor_accounts",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("store_id", Integer, ForeignKey("stores.id")),  # None for an admin of every store
    Column("name", String(NAME_MAX), nullable=False),
    Column("name_key", String(NAME_KEY_MAX), nullable=False, unique=True),  # quiz.model.names.name_key
    Column("role", String(16), nullable=False),  # "supervisor" (their store) or "admin" (every store)
    Column("password_hash", String(200)),  # argon2id; None: signs in only through OpenID Connect
    Column("oidc_subject", String(255), unique=True),  # "<issuer> <sub>" of a linked OpenID Connect login
    Column("credential_version", String(32), nullable=False),  # changes with the password: sessions end
    Column("created_at", UTCDateTime, nullable=False),
    Column("disabled_at", UTCDateTime),
)

# A code a supervisor makes for staff to join their store: expiring, revocable.
join_codes = Table(
    "join_codes",
    metadata,
    Column("code", String(32), primary_key=True),
    Column("store_id", Integer, ForeignKey("stores.id"), nullable=False),
    Column("created_by", Integer, ForeignKey("supervisor_accounts.id")),
    Column("created_at", UTCDateTime, nullable=False),
    Column("expires_at", UTCDateTime, nullable=False),
    Column("revoked_at", UTCDateTime),
    Column("uses", Integer, nullable=False),
)

# Who (account) did what to whom and when: PIN reset, lock lifted, pack imported or removed,
# report resolved, assignment made. Rows are only ever added.
audit_log = Table(
    "audit_log",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("at", UTCDateTime, nullable=False),
    Column("account_id", Integer, ForeignKey("supervisor_accounts.id")),  # None: the system (a CLI, a migration)
    Column("actor", String(NAME_MAX), nullable=False),  # the account's name then, kept if it is renamed
    Column("store_id", Integer, ForeignKey("stores.id")),  # the store acted in; None: every store
    Column("action", String(32), nullable=False),
    Column("target", String(200), nullable=False),  # a trainee's name, a pack, a report's id, ...
    Column("detail", JSON),
    Index("ix_audit_log_store_at", "store_id", "at"),
)

# Onboarding (``quiz.training.assignments``): a study plan a supervisor gives staff, due by a
# date: categories or cards to practise to a mastery level, and/or an exam preset to pass.
assignments = Table(
    "assignments",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("store_id", Integer, ForeignKey("stores.id"), nullable=False),
    Column("created_by", Integer, ForeignKey("supervisor_accounts.id")),
    Column("created_at", UTCDateTime, nullable=False),
    Column("title", String(200), nullable=False),
    Column("plan", JSON, nullable=False),  # what to do: quiz.training.assignments.Plan.stored()
    Column("due", UTCDateTime, nullable=False),
    Column("archived_at", UTCDateTime),
    Column("whole_store", Boolean),  # true: staff who join the store later join it (quiz.db.assignments)
    Index("ix_assignments_store_due", "store_id", "due"),
)

assignment_members = Table(
    "assignment_members",
    metadata,
    Column("assignment_id", Integer, ForeignKey("assignments.id"), primary_key=True, autoincrement=False),
    Column("trainee_id", Integer, ForeignKey("trainees.id"), primary_key=True, autoincrement=False),
    Column("completed_at", UTCDateTime),  # when the plan was first found done
    Index("ix_assignment_members_trainee", "trainee_id"),
)

# Content packs in the database (``quiz.db.packs``), shared by every server of a deployment: a
# pack belongs to one store (only its trainees draw its cards) or, with no store, to every
# store. Its files are kept as checked; a removed pack keeps its row and files (removed_at).
content_packs = Table(
    "content_packs",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(64), nullable=False, unique=True),
    Column("store_id", Integer, ForeignKey("stores.id")),  # None: every store's trainees draw it
    Column("imported_at", UTCDateTime, nullable=False),
    Column("imported_by", Integer, ForeignKey("supervisor_accounts.id")),
    Column("removed_at", UTCDateTime),
)

content_pack_files = Table(
    "content_pack_files",
    metadata,
    Column("pack_id", Integer, ForeignKey("content_packs.id"), primary_key=True, autoincrement=False),
    Column("path", String(255), primary_key=True),  # <ruleset id>/<file>.yaml, as staged
    Column("text", Text, nullable=False),
)

# The card ids of the packs not removed: the primary key lets one pack only claim an id, whichever
# server imports it (shipped cards are checked before the insert; a removal frees its ids).
content_pack_cards = Table(
    "content_pack_cards",
    metadata,
    Column("card_id", String(120), primary_key=True),
    Column("pack_id", Integer, ForeignKey("content_packs.id"), nullable=False),
    Index("ix_content_pack_cards_pack", "pack_id"),
)
