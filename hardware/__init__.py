"""hardware: cameras as BGR frames, buttons as queued events."""
