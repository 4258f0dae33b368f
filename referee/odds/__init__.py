"""Odds: exact distributions of dice outcomes and of what follows from them.

Imported only when odds are shown (``OddsRef.compute``, ``referee odds``): it loads the dice
library (dyce). ``dist`` holds the distribution value, ``report`` what a dice question's odds
say, ``simulate`` the seeded fallback for cases too large to evaluate exactly, ``chart`` the
text a terminal shows, ``generic`` the plain odds of a ``DiceSpec``.
"""
