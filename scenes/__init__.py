"""Deterministic scene renderer: photo-like labelled images of a game table."""
