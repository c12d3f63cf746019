"""The games that ship with boardgen, one package each (global_wellbeing, philanthropist, better_life,
global_warming, resilience_earth). The core never imports them by name: each is registered in pyproject.toml
under the entry-point group ``boardgen.games`` and found through ``boardgen.plugin``."""
