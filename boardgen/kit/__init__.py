"""The kit standard: a game's parts declared once (``boardgen.kit.parts``), and what is made from the declaration
(the inventory here; the Tabletop Simulator save and print-on-demand images in ``boardgen.exports``)."""
