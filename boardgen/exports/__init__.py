"""Exports of a game's declared parts (``boardgen.kit.parts``) for other tables and printers: a Tabletop Simulator
save (``tts``) and print-on-demand images (``pod``), both drawn from the same scenes as the PDFs (``faces``)."""
