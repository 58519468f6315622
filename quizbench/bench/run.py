"""``python -m quizbench.bench``: build content and history at scale, measure, print, save JSON."""

from __future__ import annotations

import json
import os
import random
import statistics
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator
from urllib.parse import urlencode

from quiz.access.accounts import set_pin
from quiz.content.loader import RULESETS_DIR, card_files, load_content
from quiz.db.store import Store, Trainee
from quiz.model.attempt import AttemptRecord
from quiz.model.facts import resolve_facts
from quiz.model.safe_yaml import safe_load
from quiz.model.scope import Supervisor
from quiz.rules import engine
from quiz.rules.variants import seed_facts
from quizbench.bench import cold_start, synthetic
from quizbench.bench.database import bench_database
from quizbench.bench.pages import MEASURED
from quizbench.bench.scripts import APP, FLOORS
from quizbench.bench.timing import alternating_medians, median_seconds, peak_rss_mb

SEED = 20261129
BENCH_PIN = "bench-pin-2468"  # the heavy trainee's, typed in at each cold start
PRACTICE_POOL_KEY = "practice-pool"  # quiz/ui/pages/practice.py's POOL_KEY (a page script: not imported)
REPORTS_ON_ONE_CARD = 10_000  # a flood from one trainee, as a probe once filed


@dataclass(frozen=True)
class Sizes:
    cards: int
    attempts: int
    trainees: int
    heavy_attempts: int
    repeats: int
    cold_starts: int  # of the app, and as many of its floor, in turns


FULL = Sizes(cards=10_000, attempts=1_000_000, trainees=200, heavy_attempts=100_000, repeats=5, cold_starts=3)
QUICK = Sizes(cards=500, attempts=20_000, trainees=20, heavy_attempts=5_000, repeats=3, cold_starts=1)


def run_bench(quick: bool = False, json_path: Path | None = None, log=print, database_url: str | None = None) -> dict:
    """Measure everything; returns the figures (also written to ``json_path``).

    The history goes to a temporary SQLite file, or to ``database_url`` when given (see
    ``quizbench.bench.database``: a scratch database on a PostgreSQL server).
    """
    sizes = QUICK if quick else FULL
    rng = random.Random(SEED)
    figures: dict = {"sizes": {"cards": sizes.cards, "attempts": sizes.attempts, "trainees": sizes.trainees}}
    with tempfile.TemporaryDirectory(prefix="quiz-bench-") as tmp, bench_database(database_url, Path(tmp)) as url:
        folder = Path(tmp)
        shipped = load_content()
        log(f"writing {sizes.cards} cards ...")
        card_ids = synthetic.write_cards(shipped, sizes.cards, folder / "cards", rng)
        figures.update(_content_figures(folder / "cards", sizes))
        content = load_content(RULESETS_DIR, [folder / "cards"])
        figures.update(_engine_figures(content))
        log(f"writing {sizes.attempts} attempts by {sizes.trainees} trainees ...")
        store = Store(url)
        figures["database"] = store.engine.dialect.name
        start = time.perf_counter()
        trainee_ids = synthetic.write_history(
            store, content, card_ids, sizes.attempts, sizes.trainees, sizes.heavy_attempts, rng
        )
        figures["history_write_s"] = time.perf_counter() - start
        figures["answer_write_ms"] = _answer_write_ms(store, content, trainee_ids[-1], card_ids)
        heavy = next(t for t in store.trainees(Supervisor(0, "bench", "admin", None).scope()) if t.id == trainee_ids[0])
        set_pin(store, heavy.id, BENCH_PIN, None)
        env = {"QUIZ_DATABASE_URL": url, "QUIZ_CONTENT_DIR": str(folder / "cards"),
               "QUIZ_SUPERVISOR_PASSWORD": "bench-password"}
        log("measuring pages ...")
        with _environment(env):
            figures["pages"] = _page_figures(store, heavy, sizes.repeats)
            log(f"measuring the Card review page with {REPORTS_ON_ONE_CARD} reports on one card ...")
            synthetic.write_reports(store, card_ids[0], trainee_ids, REPORTS_ON_ONE_CARD, rng)
            figures["pages"]["items_reports"] = _flooded_card_figures(card_ids[0], sizes.repeats)
        log("measuring cold start ...")
        figures.update(_cold_start_figures(env, heavy, sizes.cold_starts))
        store.dispose()
    figures["peak_rss_mb"] = peak_rss_mb()
    if json_path is not None:
        json_path.write_text(json.dumps(figures, indent=2), encoding="utf-8")
    return figures


def _content_figures(folder: Path, sizes: Sizes) -> dict:
    texts = [path.read_text(encoding="utf-8") for path in card_files([folder])]

    def floor() -> None:
        for text in texts:
            safe_load(text)

    def cold() -> None:
        loaded = load_content(RULESETS_DIR, [folder])
        if loaded.problems:
            raise RuntimeError(f"synthetic content has problems: {loaded.problems[0]}")

    floor_s, cold_s = alternating_medians(floor, cold, sizes.repeats)
    cached_s = _served_content_seconds(folder)
    return {
        "content_bytes": sum(len(t.encode("utf-8")) for t in texts),
        "content_load_cold_s": cold_s,
        "yaml_floor_s": floor_s,
        "content_load_ratio_to_floor": cold_s / floor_s,
        "content_load_cached_s": cached_s,
    }


def _served_content_seconds(folder: Path) -> float:
    """A page run's content lookup, as the app does it (``quiz.ui.resources.content``: the
    rulesets and these cards, memoised per process), once the first run has loaded it."""
    from quiz.ui import resources

    settings = {"QUIZ_SCENARIOS_DIR": str(folder), "QUIZ_CONTENT_DIR": str(folder / ".no-imported-packs"),
                "QUIZ_RULESETS_DIR": str(RULESETS_DIR)}
    kept = {name: os.environ.get(name) for name in settings}
    os.environ.update(settings)
    try:
        resources.reload_content()
        resources.content()  # the first page run: loads (or reads the snapshot)
        return median_seconds(resources.content, 20)
    finally:
        for name, value in kept.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        resources.reload_content()


def _engine_figures(content) -> dict:
    cases = [(content.rulesets[c.ruleset], c.infraction, seed_facts(c)) for c in content.scenario_cards]
    start = time.perf_counter()
    for ruleset, infraction, facts in cases:
        engine.judge(ruleset, infraction, facts)
    as_used = len(cases) / (time.perf_counter() - start)
    resolved = []
    for ruleset, infraction, facts in cases:
        book = engine.compile_ruleset(ruleset)
        entry = book.infractions[infraction][0]
        resolved.append((ruleset, book, infraction, resolve_facts(book.facts, facts, entry.requires, entry.assumes)))
    start = time.perf_counter()
    for _ruleset, book, infraction, facts in resolved:
        engine._decide(book, infraction, facts)  # noqa: SLF001 - the unmemoised path
    unmemoised = len(cases) / (time.perf_counter() - start)
    return {"verdicts_per_s": as_used, "verdicts_per_s_unmemoised": unmemoised, "verdict_count": len(cases)}


def _answer_write_ms(store: Store, content, trainee_id: int, card_ids: list[str]) -> float:
    save = _saver(store)
    card = next(content.cards[card_id] for card_id in card_ids if content.cards[card_id].kind == "scenario")

    def write() -> None:
        save(AttemptRecord(trainee_id=trainee_id, card_id=card.id, ruleset=card.ruleset, category=None,
                           card_kind="scenario", correct=True, seconds=10.0))

    return median_seconds(write, 200) * 1000


def _saver(store: Store):
    """The app's own answer writer: the attempt and the card's review schedule."""
    from quiz.db.answers import save_answer

    return lambda record: save_answer(store, record)


def _page_figures(store: Store, heavy: Trainee, repeats: int) -> dict:
    """Each page of ``pages.MEASURED`` against its floor: a trainee's page signed in as
    ``heavy``, a supervisor's signed in on the page; a floor call's step (``step``) as the
    run after a step button is pressed."""
    from quizbench.bench import page_timer  # AppTest: only the page figures need Streamlit

    query = {"lang": "en"}
    figures = {}
    for page in MEASURED:
        if page.step:
            figures[page.name] = _floor_call_step_figures(store, heavy, page.floor_file, query, repeats)
            continue
        prepare = _scenario_card if page.name == "practice" else None if page.signed_in else _unlock
        figures[page.name] = page_timer.measure_page(
            f"quiz/ui/pages/{page.file}", page.floor_file, query, repeats, trainee=heavy if page.signed_in else None,
            prepare=prepare, cold=page.cold,
        ).to_json()
    return figures


def _scenario_card(app) -> None:
    """The practice page measured on a scenario card, as its floor draws: a floor call dealt
    first (about one card in seven) is swapped for the first scenario card of the content."""
    from quiz.ui import resources

    state = app.session_state["practice"]
    content = resources.content()
    if content.cards[state.card].kind != "scenario":
        state.deal(next(card.id for card in content.scenario_cards if not card.parameters))
        app.run()


def _floor_call_step_figures(store: Store, heavy: Trainee, floor: str, query: dict[str, str], repeats: int) -> dict:
    """A step of a floor call on the practice page (its pool set to floor calls, the call with
    the most steps dealt): the run after a step button is pressed, which stores the step and
    draws the conversation and the round clock again, against ``floor`` with as many steps.
    Once every step is taken, the investigation starts over, unmeasured (its steps deleted)."""
    from quiz.db.investigations import forget_steps
    from quiz.ui import resources
    from quiz.ui.investigation_view import steps_key
    from quizbench.bench import page_timer
    from quizbench.bench.floors.investigation import STEP_KEY_PREFIX, STEPS_KEY, TAKEN_KEY

    content = resources.content()
    call = max(content.floor_calls, key=lambda card: (len(card.steps), card.id))

    def deal_the_call(app) -> None:
        pool = next(w for w in app.get("button_group") if w.key == PRACTICE_POOL_KEY)  # a segmented control
        pool.set_value("floor_calls").run()
        app.session_state["practice"].deal(call.id)
        app.run()

    def step_buttons(app, prefix: str) -> list:
        return [button for button in app.button if (button.key or "").startswith(prefix)]

    def take_a_step(app) -> None:
        form_key = f"answer-{app.session_state['practice'].n}"
        buttons = step_buttons(app, f"{form_key}-step-")
        if not buttons:  # every step taken: the same call afresh
            forget_steps(store, heavy.id, call.id)
            del app.session_state[steps_key(form_key)]
            app.run()
            buttons = step_buttons(app, f"{form_key}-step-")
        buttons[0].click()

    def take_a_floor_step(floor_app) -> None:
        buttons = step_buttons(floor_app, STEP_KEY_PREFIX)
        if not buttons:
            floor_app.session_state[TAKEN_KEY] = 0
            floor_app.run()
            buttons = step_buttons(floor_app, STEP_KEY_PREFIX)
        buttons[0].click()

    def floor_steps(floor_app) -> None:
        floor_app.session_state[STEPS_KEY] = len(call.steps)

    try:
        return page_timer.measure_clicks(
            "quiz/ui/pages/practice.py", floor, query, repeats, take_a_step, take_a_floor_step,
            prepare=deal_the_call, prepare_floor=floor_steps, trainee=heavy,
        ).to_json() | {"card": call.id, "steps": len(call.steps)}
    finally:
        forget_steps(store, heavy.id, call.id)


def _flooded_card_figures(card_id: str, repeats: int) -> dict:
    """The Card review page with ``card_id`` picked, its reports (``REPORTS_ON_ONE_CARD``)
    shown a page at a time, against a floor that draws the same widgets with a page of rows
    (medians of at least 9 runs each: a shared machine's load moves a few runs a lot)."""
    from quizbench.bench import page_timer as pages

    def open_card(app) -> None:
        _unlock(app)
        app.selectbox(key="items-card").select(card_id).run()

    return pages.measure_page("quiz/ui/pages/items.py", "items_reports.py", {"lang": "en"}, max(repeats, 9),
                              prepare=open_card).to_json()


def _unlock(app) -> None:
    """Sign in on a supervisor's page (Team, Card review) as a supervisor would: as "admin"
    with the deployment's old shared password, which makes that account at the first run."""
    if not any(w.key == "supervisor-password" for w in app.text_input):
        return
    app.text_input(key="supervisor-name").set_value("admin")
    app.text_input(key="supervisor-password").set_value(os.environ["QUIZ_SUPERVISOR_PASSWORD"])
    next(b for b in app.button if b.label).click()
    app.run()


def _cold_start_figures(env: dict[str, str], heavy: Trainee, cold_starts: int) -> dict:
    if cold_start.chromium_path() is None:
        return {"cold_start_s": None, "cold_start_floor_s": None}
    apps, floors = [], []
    for _ in range(cold_starts):  # in turns, so both see the same machine load; medians
        query = urlencode({"trainee": heavy.name, "lang": "en"})
        apps.append(cold_start.cold_start_seconds(APP, env, f"?{query}", "Check", BENCH_PIN))
        floors.append(cold_start.cold_start_seconds(FLOORS / "practice.py", env, f"?{query}",
                                                    "Check", BENCH_PIN))
    app, floor = statistics.median(apps), statistics.median(floors)
    return {"cold_start_s": app, "cold_start_floor_s": floor, "cold_start_ratio_to_floor": app / floor}


@contextmanager
def _environment(values: dict[str, str]) -> Iterator[None]:
    saved = {key: os.environ.get(key) for key in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value




def report(figures: dict) -> str:
    """The figures as a table, each with its target and whether it is met."""
    rows = [
        ("content load, cold (s)", figures["content_load_cold_s"], None),
        ("libyaml floor (s)", figures["yaml_floor_s"], None),
        ("content load / floor", figures["content_load_ratio_to_floor"], ("≤", 2.0)),
        ("content load, cached (s)", figures["content_load_cached_s"], ("≤", 0.010)),
        ("verdicts per second", figures["verdicts_per_s"], ("≥", 100_000)),
        ("verdicts per second, unmemoised", figures["verdicts_per_s_unmemoised"], None),
        ("store one answer (ms)", figures["answer_write_ms"], ("≤", 20.0)),
        ("write the history (s)", figures.get("history_write_s", float("nan")), None),
    ]
    limits = {"practice": 1.5, "floor_call": 1.3, "progress": 2.0, "team": 2.0, "items": 2.0, "items_reports": 2.0}
    for name, page in figures["pages"].items():
        rows.append((f"{name} page rerun (s)", page["rerun_s"], None))
        rows.append((f"{name} floor rerun (s)", page["floor_s"], None))
        rows.append((f"{name} page / floor", page["ratio_to_floor"], ("≤", limits[name])))
        if "cold_s" in page:  # the first render after a change, figures computed afresh
            rows.append((f"{name} page, first render (s)", page["cold_s"], None))
            rows.append((f"{name} first render / floor", page["cold_ratio_to_floor"], None))
    if figures.get("cold_start_s") is not None:
        rows.append(("cold start (s)", figures["cold_start_s"], None))
        rows.append(("cold start floor (s)", figures["cold_start_floor_s"], None))
        rows.append(("cold start / floor", figures["cold_start_ratio_to_floor"], ("≤", 1.5)))
    rows.append(("peak RSS (MiB)", figures["peak_rss_mb"], None))
    sizes = figures["sizes"]
    lines = [f"sizes: {sizes['cards']} cards, {sizes['attempts']} attempts, {sizes['trainees']} trainees"
             f" on {figures.get('database', 'sqlite')}", ""]
    for label, value, target in rows:
        verdict = ""
        if target is not None:
            op, limit = target
            met = value <= limit if op == "≤" else value >= limit
            verdict = f"target {op} {limit:g}: {'met' if met else 'MISSED'}"
        lines.append(f"{label:<36} {value:>14,.4f}  {verdict}")
    return "\n".join(lines)
