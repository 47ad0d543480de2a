"""Fixtures for the hardware tests: ``mock_factory`` and ``clock`` come from tests/conftest.py."""
