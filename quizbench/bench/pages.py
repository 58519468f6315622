"""Which of the app's pages the benchmark measures, each against a floor in ``floors/`` (of the
same file name, unless a second case of a page names its own), and why each other page is not
measured. Both are keyed by the app's own page table (``quiz.ui.page_table``):
tests/quizbench/test_bench_pages.py fails on a page that is in neither, so a new page cannot
fall out of the benchmark unnoticed."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BenchPage:
    name: str  # its figures' key in the benchmark's JSON
    file: str  # the app's page, and its floor's file name
    signed_in: bool = False  # measured signed in as the trainee with the most answers; else a supervisor's page
    cold: bool = False  # also the first render after its cached figures are dropped
    floor: str | None = None  # its floor's file name, when not the page's own (a second case of a page)
    step: bool = False  # the run after a floor call's step button is pressed, not a rerun

    @property
    def floor_file(self) -> str:
        return self.floor or self.file


MEASURED = (
    BenchPage("practice", "practice.py", signed_in=True),
    BenchPage("progress", "progress.py", signed_in=True),
    BenchPage("team", "team.py"),
    BenchPage("items", "items.py", cold=True),
    # a floor call investigated on Practice: a step taken (stored), the conversation and clock redrawn
    BenchPage("floor_call", "practice.py", signed_in=True, floor="floor_call.py", step=True),
)

NOT_MEASURED = {
    "review.py": "the practice page's card fragment (quiz.ui.answer_flow) over the due cards: measured as Practice",
    "exam.py": "its answer loop is measured under load against the capacity floor's Mock exam page (make capacity)",
    "reference.py": "the rulesets in tables: nothing on it grows with the answers or trainees",
    "content.py": "its work is checking content, measured by the content load figures",
    "assignments.py": "a store's plans and standings: to be measured once its queries settle",
    "stores.py": "join codes; an admin's stores, accounts, audit log: to be measured later",
}
