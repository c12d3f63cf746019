"""Placeholder: this game's plug-in is being written (its issue is open)."""
