"""The Philanthropist's rules: the engine (the rules API), its bots,
the compiled kernel and its batches, and the report's own findings."""
