"""quiz.ui.resources: the content is loaded once per server and kept out of garbage collections."""

from __future__ import annotations

import gc

from quiz.ui import resources


def _tracked(thing: object) -> bool:
    """Whether the collector's generations hold ``thing`` (a frozen object is in none of them)."""
    return any(other is thing for other in gc.get_objects())


def test_the_loaded_content_is_moved_out_of_the_collectors_generations(database_url) -> None:
    resources.reload_content()
    assert gc.get_freeze_count() == 0
    content = resources.content()
    assert resources.content() is content  # loaded once
    assert gc.get_freeze_count() > 0
    assert not _tracked(content) and not _tracked(content.cards)


def test_a_reload_gives_the_old_content_back_to_the_collector(database_url) -> None:
    old = resources.content()
    resources.reload_content()
    assert gc.get_freeze_count() == 0 and _tracked(old.cards)  # collectable again, if it is garbage
    new = resources.content()
    assert new is not old and not _tracked(new.cards)
