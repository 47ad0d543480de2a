"""companion: scorekeeping, timers and table recognition for physical games."""

__version__ = "0.1.0"
