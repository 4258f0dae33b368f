"""Odds: exact distributions of dice outcomes and of what follows from them.

Imported only when odds are shown (``OddsRef.compute``, ``referee odds``); no dice library
(issue 25 measured ``dist`` against dyce's histogram and kept it: ``benchmarks/
dist_vs_dyce.py``). ``dist`` holds the distribution value, ``report`` what a dice question's
odds say, ``simulate`` the seeded fallback for cases too large to evaluate exactly, ``generic``
the plain odds of a ``DiceSpec``. The rulesets' odds are built from these; the text and tables
that show them are ``referee.render``'s (``render.odds``, ``render.whatif``).
"""
