"""Playing games: the OpenSpiel-shaped rules API every game implements, generic bots, simulate and validate."""
