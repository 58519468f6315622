"""Shared fixtures: the shipped content, loaded once per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

from quiz.loader import Content, load_content

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def content() -> Content:
    return load_content()


@pytest.fixture(scope="session")
def ygo(content: Content):
    return content.rulesets["yugioh-ocg"]


@pytest.fixture(scope="session")
def pkm(content: Content):
    return content.rulesets["pokemon-card-ja"]
