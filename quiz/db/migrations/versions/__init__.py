"""The schema's revisions, oldest first; ``0001`` to ``0003`` are the old schema versions 1 to 3."""
