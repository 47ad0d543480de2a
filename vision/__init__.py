"""vision: pure functions from a BGR frame to typed readings (dice, cards)."""
