"""`boardgen serve`: a local web app that previews a template's kit live (SVG pages drawn from the build's own
scenes, rebuilt when a file is saved), plays any installed game in the browser against its bots or hot-seat, and
steps through replays of simulated games. ``preview`` builds the kit in memory, ``spaces`` reads a board's graph
of spaces and places actions on it, ``session`` holds open games, ``app`` is the Starlette application."""
