"""boardgen.games.global_wellbeing.rules."""
