"""Where the piecepack's plug-in was before it became its own package (``boardgen.games.piecepack``): the
entry point an older install recorded still finds it here."""

from boardgen.games.piecepack import plugin as plugin
